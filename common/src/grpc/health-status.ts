// grpc.health.v1 as every server here serves it: Check alone. The library's HealthImplementation
// also serves Watch, a stream it keeps for as long as its caller likes, one per call: a holder of any
// certificate of the internal CA opened 20,000 of them on one connection to the wallet (its memory
// 85 -> 282 MB), and on the plaintext health port (HEALTH_PORT) anyone who reaches it could. No
// caller here watches: the Kubernetes probes and HealthChecker ask Check. Watch is left unimplemented,
// so grpc-js answers UNIMPLEMENTED and keeps nothing.
import type { sendUnaryData, Server, ServerUnaryCall, UntypedServiceImplementation } from "@grpc/grpc-js";
import { status } from "@grpc/grpc-js";
import { service as healthService } from "grpc-health-check";

export type ServingStatus = "SERVING" | "NOT_SERVING";

export class HealthStatus {
  private readonly statuses: Map<string, ServingStatus>;

  constructor(initial: Record<string, ServingStatus>) {
    this.statuses = new Map(Object.entries(initial));
  }

  set(service: string, value: ServingStatus): void {
    this.statuses.set(service, value);
  }

  /** Serves Check on `server`, from the statuses this holds (every server it is added to shares them). */
  addToServer(server: Server): void {
    const check = (call: ServerUnaryCall<{ service: string }, unknown>, done: sendUnaryData<{ status: string }>) => {
      const value = this.statuses.get(call.request.service);
      if (value) return done(null, { status: value });
      done({ code: status.NOT_FOUND, details: `Health status unknown for service ${call.request.service}` });
    };
    server.addService(healthService, { check } as UntypedServiceImplementation);
  }
}
