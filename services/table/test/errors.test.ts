import { status, Metadata, type ServiceError } from "@grpc/grpc-js";
import { UnavailableError } from "@pokerodds/common";
import test from "ava";
import { outageOf } from "../src/errors.js";

const grpcError = (code: status): ServiceError =>
  Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:50052"), {
    code,
    details: "connect ECONNREFUSED 127.0.0.1:50052",
    metadata: new Metadata(),
  });

test("a dependency's outage is told in the words the gateway uses when it finds a service down itself", (t) => {
  for (const code of [status.UNAVAILABLE, status.DEADLINE_EXCEEDED]) {
    const error = t.throws(() => outageOf("wallet")(grpcError(code)), { instanceOf: UnavailableError });
    t.is(error?.message, "wallet service unavailable");
  }
  t.throws(() => outageOf("odds")(grpcError(status.UNAVAILABLE)), { message: "odds service unavailable" });
  // Any other failure passes as it is.
  t.throws(() => outageOf("wallet")(grpcError(status.INTERNAL)), { message: /ECONNREFUSED/ });
});
