import { Server, ServerCredentials, type ServiceDefinition, type UntypedServiceImplementation } from "@grpc/grpc-js";
import { loadSync } from "@grpc/proto-loader";
import { ReflectionService } from "@grpc/reflection";
import { HealthImplementation, protoPath as healthProtoPath } from "grpc-health-check";
import { fileURLToPath } from "node:url";
import type { Logger } from "../logger.js";

/** proto/ at the repository root (common/dist/grpc -> ../../../proto). */
const PROTO_ROOT = fileURLToPath(new URL("../../../proto/", import.meta.url));

export interface ServiceRegistration {
  /** Fully qualified name, e.g. pokerodds.odds.v1.OddsService: the health and reflection key. */
  name: string;
  /** Path of its .proto file under proto/, for server reflection. */
  protoFile: string;
  definition: ServiceDefinition;
  implementation: UntypedServiceImplementation;
}

export interface RunningGrpcServer {
  port: number;
  /** Reports SERVING or NOT_SERVING for the service and the overall ("") key probes ask for. */
  setServing(serving: boolean): void;
  /** Stops taking calls, lets in-flight calls finish for up to graceMs, then cuts the rest. */
  shutdown(graceMs: number): Promise<void>;
}

export async function startGrpcServer(
  registration: ServiceRegistration,
  options: { host?: string; port: number; logger: Logger },
): Promise<RunningGrpcServer> {
  const server = new Server({
    // Long-lived HTTP/2 connections would pin a client to one replica; recycling them rebalances.
    "grpc.max_connection_age_ms": 5 * 60_000,
    "grpc.max_connection_age_grace_ms": 30_000,
    "grpc.max_receive_message_length": 4 * 1024 * 1024,
  });
  server.addService(registration.definition, registration.implementation);

  const health = new HealthImplementation({ "": "NOT_SERVING", [registration.name]: "NOT_SERVING" });
  health.addToServer(server);

  const descriptors = loadSync([registration.protoFile, healthProtoPath], {
    includeDirs: [PROTO_ROOT],
    keepCase: true,
  });
  new ReflectionService(descriptors).addToServer(server);

  const address = `${options.host ?? "0.0.0.0"}:${options.port}`;
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync(address, ServerCredentials.createInsecure(), (error, bound) =>
      error ? reject(error) : resolve(bound),
    ),
  );
  options.logger.info({ port, grpcService: registration.name }, "gRPC server listening");

  const setServing = (serving: boolean) => {
    const value = serving ? "SERVING" : "NOT_SERVING";
    health.setStatus("", value);
    health.setStatus(registration.name, value);
  };

  const shutdown = (graceMs: number) =>
    new Promise<void>((resolve) => {
      setServing(false);
      // tryShutdown can wait forever on a stuck call; forceShutdown is the backstop.
      const timer = setTimeout(() => {
        options.logger.warn("grace period over, cutting remaining calls");
        server.forceShutdown();
        resolve();
      }, graceMs);
      server.tryShutdown(() => {
        clearTimeout(timer);
        resolve();
      });
    });

  return { port, setServing, shutdown };
}
