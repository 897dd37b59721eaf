import test from "ava";
import { MongoBulkWriteError, MongoNetworkError, MongoServerError, MongoServerSelectionError } from "mongodb";
import { isDatabaseOutage, isDuplicateKey } from "../src/mongo.js";

const socketError = (code: string) =>
  Object.assign(new Error("This socket has been ended by the other party"), { code });

test("an unreachable database is an outage; the server's own answers and other errors are not", (t) => {
  t.true(isDatabaseOutage(new MongoNetworkError("connection reset")));
  t.true(isDatabaseOutage(new MongoServerSelectionError("no server", { type: "Unknown" } as never)));
  // The driver lets a write to a socket the server already closed through as a bare Node error.
  t.true(isDatabaseOutage(socketError("EPIPE")));
  t.true(isDatabaseOutage(socketError("ECONNRESET")));

  const duplicate = new MongoServerError({ message: "E11000 duplicate key", code: 11000 });
  t.false(isDatabaseOutage(duplicate));
  t.true(isDuplicateKey(duplicate));
  t.false(isDatabaseOutage(new Error("a bug")));
  t.false(isDatabaseOutage(socketError("ENOENT")));
  t.false(isDatabaseOutage(Object.assign(new Error("grpc"), { code: 14 })));
  t.false(isDatabaseOutage(null));
});

test("a connection lost during insertMany (wrapped in a bulk write error) is an outage; a refused insert is not", (t) => {
  const lost = new MongoNetworkError("connection 29 to 127.0.0.1:34149 closed");
  t.true(isDatabaseOutage(new MongoBulkWriteError(lost as never, { insertedCount: 0 } as never)));
  const duplicate = new MongoBulkWriteError(
    { message: "E11000 duplicate key", code: 11000, writeErrors: [] } as never,
    { insertedCount: 0 } as never,
  );
  t.false(isDatabaseOutage(duplicate));
  t.true(isDuplicateKey(duplicate));
});
