import { Server, ServerCredentials, type ServiceDefinition, type UntypedServiceImplementation } from "@grpc/grpc-js";
import { loadSync } from "@grpc/proto-loader";
import { ReflectionService } from "@grpc/reflection";
import { protoPath as healthProtoPath } from "grpc-health-check";
import { fileURLToPath } from "node:url";
import { LONGEST_CALL_MS } from "../limits.js";
import type { Logger } from "../logger.js";
import { TIMED_OUT, within } from "../within.js";
import { accessInterceptor, decodedAfterAccess, refuseUndecodable } from "./access.js";
import { HealthStatus } from "./health-status.js";
import { DEFAULT_CONNECTIONS_PER_ADDRESS, listenCapped, type Listener } from "./listener.js";
import { DEFAULT_HANDSHAKE_TIMEOUT_MS, serverCredentials, type ServiceIdentity, type TlsFiles } from "./tls.js";

/**
 * The health key a liveness probe asks for: SERVING for as long as the process answers, whatever its
 * database or its draining. A probe of it fails only when the event loop is stuck or the process is
 * gone, which a TCP connect (the kernel's handshake) cannot tell.
 */
export const LIVENESS_CHECK = "liveness";

/**
 * The health key of a database service's writes: SERVING while its last write probe succeeded
 * (common/src/mongo.ts), NOT_SERVING otherwise. Apart from "" and the service's key, which readiness
 * probes ask for: a database that reads but cannot write still serves reads, and no other replica
 * could write either. GET /api/health reports it.
 */
export const DATABASE_WRITES_CHECK = "database-writes";

/** A health Check's request is a service's name: far below this. */
export const HEALTH_REQUEST_MAX_BYTES = 1024;
/** Calls one connection to the health port may have open at once (a probe makes one). */
export const HEALTH_CALLS_PER_CONNECTION = 4;

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
  /** The plaintext health-only port (see GrpcServerOptions.healthPort), when one was asked for. */
  healthPort?: number;
  /** Reports SERVING or NOT_SERVING for the service and the overall ("") key probes ask for. */
  setServing(serving: boolean): void;
  /** Reports DATABASE_WRITES_CHECK (a service without a database never does, and it stays unknown). */
  setDatabaseWritable(writable: boolean): void;
  /** Stops taking calls, lets in-flight calls finish for up to graceMs, then cuts the rest. */
  shutdown(graceMs: number): Promise<void>;
}

interface GrpcServerOptions {
  /** Default 127.0.0.1: only this machine. Kubernetes sets 0.0.0.0 (GRPC_HOST). */
  host?: string;
  port: number;
  logger: Logger;
  /**
   * Mutual TLS: a client certificate from the CA is required. Without it the server is plaintext,
   * which only in-process tests do (every service's main passes it).
   */
  tls?: TlsFiles;
  /** With tls: who may call each RPC (see access.ts). Required with tls. */
  access?: Record<string, readonly ServiceIdentity[]>;
  /** Server reflection (grpcurl, Postman): development only. Default off. */
  reflection?: boolean;
  /**
   * HEALTH_PORT: also serve grpc.health.v1, and nothing else, in plaintext on this port (same host),
   * sharing the main server's status. For Kubernetes' gRPC probes, which cannot present a client
   * certificate. Nothing is served on it but the health status of this process. Default: none.
   */
  healthPort?: number;
  /**
   * Connections one client address may hold open at once, on each port (0: no cap; listener.ts).
   * Default DEFAULT_CONNECTIONS_PER_ADDRESS; every service's main passes GRPC_MAX_CONNECTIONS_PER_ADDRESS.
   */
  connectionsPerAddress?: number;
  /**
   * How long a new connection has to finish its TLS handshake (with tls), and one to the health port
   * to make its first call, before it is closed. Default DEFAULT_HANDSHAKE_TIMEOUT_MS.
   */
  handshakeTimeoutMs?: number;
}

/** The main server: the service behind its access policy, the health status and, if asked, reflection. */
function serviceServer(registration: ServiceRegistration, options: GrpcServerOptions, health: HealthStatus): Server {
  const server = new Server({
    // Long-lived HTTP/2 connections would pin a client to one replica; recycling them rebalances.
    // New calls go to a new connection at once; those in flight may finish, an audit included (30 s
    // of grace cut an audit of a million ledger entries short, "Connection dropped").
    "grpc.max_connection_age_ms": 5 * 60_000,
    "grpc.max_connection_age_grace_ms": LONGEST_CALL_MS,
    "grpc.max_receive_message_length": 4 * 1024 * 1024,
    interceptors: options.access ? [accessInterceptor(registration.definition, options.access, options.logger)] : [],
  });
  const definition = options.access ? decodedAfterAccess(registration.definition) : registration.definition;
  const implementation = options.access
    ? refuseUndecodable(definition, registration.implementation)
    : registration.implementation;
  server.addService(definition, implementation);
  health.addToServer(server);
  if (options.reflection) {
    const descriptors = loadSync([registration.protoFile, healthProtoPath], {
      includeDirs: [PROTO_ROOT],
      keepCase: true,
    });
    new ReflectionService(descriptors).addToServer(server);
  }
  return server;
}

export async function startGrpcServer(
  registration: ServiceRegistration,
  options: GrpcServerOptions,
): Promise<RunningGrpcServer> {
  if (options.tls && !options.access) throw new Error("a TLS server needs an access policy");
  const health = new HealthStatus({
    "": "NOT_SERVING",
    [registration.name]: "NOT_SERVING",
    [LIVENESS_CHECK]: "SERVING",
  });
  const server = serviceServer(registration, options, health);

  const host = options.host ?? "127.0.0.1";
  const connectionsPerAddress = options.connectionsPerAddress ?? DEFAULT_CONNECTIONS_PER_ADDRESS;
  const handshakeTimeoutMs = options.handshakeTimeoutMs ?? DEFAULT_HANDSHAKE_TIMEOUT_MS;
  const listen = (on: Server, port: number, creds: ServerCredentials) =>
    listenCapped(on, creds, { host, port, connectionsPerAddress, logger: options.logger });
  const creds = options.tls ? serverCredentials(options.tls, handshakeTimeoutMs) : ServerCredentials.createInsecure();
  const listener = await listen(server, options.port, creds);
  options.logger.info(
    { host, port: listener.port, grpcService: registration.name, tls: Boolean(options.tls) },
    "gRPC server listening",
  );

  // The probes' port: a second server with the same HealthStatus (so the same status) and
  // no other service, in plaintext. It tells a caller only whether this process is serving.
  let healthServer: Server | undefined;
  let healthListener: Listener | undefined;
  if (options.healthPort !== undefined) {
    // Its callers are probes, each a short connection with one Check: a connection idle for a
    // handshake's time, one that never began included, is closed (a plaintext connection has no
    // handshake timeout of its own). Anyone who reaches the port may call, without a certificate:
    // a connection holds a few calls at once, each a few bytes (a service's name), so calls whose
    // request never ends hold next to no memory (64 KiB and no stream cap let a review's client hold
    // 650 MB with 20 connections).
    healthServer = new Server({
      "grpc.max_receive_message_length": HEALTH_REQUEST_MAX_BYTES,
      "grpc.max_concurrent_streams": HEALTH_CALLS_PER_CONNECTION,
      "grpc.max_connection_idle_ms": handshakeTimeoutMs,
    });
    health.addToServer(healthServer);
    try {
      healthListener = await listen(healthServer, options.healthPort, ServerCredentials.createInsecure());
    } catch (error) {
      void listener.close();
      server.forceShutdown();
      throw error;
    }
    options.logger.info({ host, port: healthListener.port }, "gRPC health (plaintext, health only) listening");
  }

  const setServing = (serving: boolean) => {
    const value = serving ? "SERVING" : "NOT_SERVING";
    health.set("", value);
    health.set(registration.name, value);
  };

  const shutdown = async (graceMs: number) => {
    setServing(false);
    // The calls in flight finish, and their connections end (listener.ts says why both are awaited).
    const drained = Promise.all([
      new Promise<void>((resolve) => server.tryShutdown(() => resolve())),
      listener.close(),
    ]);
    // tryShutdown can wait forever on a stuck call; forceShutdown is the backstop.
    if ((await within(drained, graceMs)) === TIMED_OUT) {
      options.logger.warn("grace period over, cutting remaining calls");
      server.forceShutdown();
      listener.destroy();
    }
    // The health port answered NOT_SERVING while the calls drained, and goes with the main server
    // (its calls are instant; a Watch stream is cut).
    void healthListener?.close();
    healthListener?.destroy();
    healthServer?.forceShutdown();
  };

  const setDatabaseWritable = (writable: boolean) =>
    health.set(DATABASE_WRITES_CHECK, writable ? "SERVING" : "NOT_SERVING");

  return { port: listener.port, healthPort: healthListener?.port, setServing, setDatabaseWritable, shutdown };
}
