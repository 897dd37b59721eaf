// Mutual TLS between the services: one private CA, one certificate per service whose identity is a
// SPIFFE-style URI SAN (spiffe://pokerodds/<service>). Certificates and the CA are read from files
// and re-read every refresh interval, so a rotated certificate is used without a restart.
import {
  credentials,
  experimental,
  ServerCredentials,
  type ChannelCredentials,
  type ServerUnaryCall,
} from "@grpc/grpc-js";
import type { PeerCertificate } from "node:tls";
import { ConfigError, envFlag, envInt, envOptional, envString } from "../config.js";
import { DEFAULT_CONNECTIONS_PER_ADDRESS } from "./listener.js";

export const TRUST_DOMAIN = "pokerodds";
export const SERVICE_IDENTITIES = ["odds", "wallet", "table", "gateway", "operator"] as const;
/**
 * Who a certificate names: the services, the gateway as a client, and an operator's tool (the
 * wallet's deposits, withdrawals and ledger, which no public route offers: no service may call them).
 */
export type ServiceIdentity = (typeof SERVICE_IDENTITIES)[number];

export function spiffeId(service: ServiceIdentity): string {
  return `spiffe://${TRUST_DOMAIN}/${service}`;
}

export interface TlsFiles {
  /** PEM of the CA that signs every service certificate: the only one trusted. */
  caFile: string;
  certFile: string;
  keyFile: string;
  /** How often the files are read again (rotation); default 60 s. */
  refreshIntervalMs?: number;
}

type Env = Record<string, string | undefined>;

/** TLS_CA_FILE, TLS_CERT_FILE, TLS_KEY_FILE (all or none), TLS_REFRESH_INTERVAL_MS. */
export function tlsFilesFromEnv(env: Env = process.env): TlsFiles | undefined {
  const names = ["TLS_CA_FILE", "TLS_CERT_FILE", "TLS_KEY_FILE"] as const;
  const set = names.filter((name) => envOptional(name, env) !== undefined);
  if (set.length === 0) return undefined;
  if (set.length < names.length) throw new ConfigError(`${names.join(", ")} must be set together`);
  return {
    caFile: envString("TLS_CA_FILE", undefined, env),
    certFile: envString("TLS_CERT_FILE", undefined, env),
    keyFile: envString("TLS_KEY_FILE", undefined, env),
    refreshIntervalMs: envInt("TLS_REFRESH_INTERVAL_MS", 60_000, { min: 100, max: 86_400_000 }, env),
  };
}

/** Where a gRPC service listens and how it is secured: what every service's main reads. */
export interface GrpcNetworkSettings {
  /** GRPC_HOST: default 127.0.0.1; Kubernetes sets 0.0.0.0. */
  grpcHost: string;
  /** GRPC_REFLECTION=1 turns server reflection on (development only). */
  reflection: boolean;
  /**
   * HEALTH_PORT: a plaintext port on GRPC_HOST serving only grpc.health.v1, for Kubernetes' gRPC
   * probes (which cannot present a client certificate). Unset: none.
   */
  healthPort?: number;
  /** GRPC_MAX_CONNECTIONS_PER_ADDRESS: connections one client address may hold open (0: no cap; listener.ts). */
  connectionsPerAddress: number;
  tls: TlsFiles;
}

/** Reads the network settings; a service never listens without TLS. */
export function readGrpcNetwork(env: Env = process.env): GrpcNetworkSettings {
  const tls = tlsFilesFromEnv(env);
  if (!tls) throw new ConfigError("TLS_CA_FILE, TLS_CERT_FILE and TLS_KEY_FILE must be set (mutual TLS)");
  const healthPort = envOptional("HEALTH_PORT", env);
  return {
    grpcHost: envString("GRPC_HOST", "127.0.0.1", env),
    reflection: envFlag("GRPC_REFLECTION", env),
    // From 1: "0" (as 0 switches other limits off) bound a plaintext port nobody knew of.
    ...(healthPort === undefined ? {} : { healthPort: envInt("HEALTH_PORT", 0, { min: 1, max: 65_535 }, env) }),
    connectionsPerAddress: envInt(
      "GRPC_MAX_CONNECTIONS_PER_ADDRESS",
      DEFAULT_CONNECTIONS_PER_ADDRESS,
      { max: 1_000_000 },
      env,
    ),
    tls,
  };
}

function provider(files: TlsFiles) {
  return new experimental.FileWatcherCertificateProvider({
    caCertificateFile: files.caFile,
    certificateFile: files.certFile,
    privateKeyFile: files.keyFile,
    refreshIntervalMs: files.refreshIntervalMs ?? 60_000,
  });
}

/**
 * How long a new connection to a gRPC port has to finish its TLS handshake, and one to the plaintext
 * health port to make its first call (server.ts). A caller's handshake takes milliseconds, also on a
 * loaded machine; Node's TLS default is 120 s, and a plaintext connection was held until it closed.
 */
export const DEFAULT_HANDSHAKE_TIMEOUT_MS = 10_000;

/**
 * Server side: a client certificate signed by the CA is required on every connection, and its
 * handshake must be done within `handshakeTimeoutMs` (Node's default is 120 s).
 */
export function serverCredentials(
  files: TlsFiles,
  handshakeTimeoutMs = DEFAULT_HANDSHAKE_TIMEOUT_MS,
): ServerCredentials {
  const files$ = provider(files);
  const creds = experimental.createCertificateProviderServerCredentials(files$, files$, true);
  // grpc-js makes its TLS server with these options (its own, typed as part of ServerCredentials).
  const serverOptions = creds._getConstructorOptions();
  if (serverOptions) serverOptions.handshakeTimeout = handshakeTimeoutMs;
  return creds;
}

/**
 * Client side: presents this service's certificate and accepts only a server whose certificate, from
 * the CA, names `expected` (any of our services when not given). Host names play no part.
 */
export function channelCredentials(files: TlsFiles, expected?: ServiceIdentity): ChannelCredentials {
  const files$ = provider(files);
  return experimental.createCertificateProviderChannelCredentials(files$, files$, {
    checkServerIdentity: (_host, cert) => {
      const names = identitiesOf(cert);
      const ok = expected ? names.includes(expected) : names.length > 0;
      return ok
        ? undefined
        : new Error(`server certificate names ${JSON.stringify(names)}, expected ${expected ?? "a service"}`);
    },
  });
}

/** TLS from the environment when TLS_* are set, plaintext otherwise (in-process tests only). */
export function channelCredentialsFromEnv(expected?: ServiceIdentity): ChannelCredentials {
  const files = tlsFilesFromEnv();
  return files ? channelCredentials(files, expected) : credentials.createInsecure();
}

/** The service identities (spiffe://pokerodds/<name>) a certificate's URI SANs carry. */
function identitiesOf(cert: Pick<PeerCertificate, "subjectaltname"> | undefined): ServiceIdentity[] {
  const prefix = `URI:spiffe://${TRUST_DOMAIN}/`;
  return (cert?.subjectaltname ?? "")
    .split(/,\s*/)
    .filter((entry) => entry.startsWith(prefix))
    .map((entry) => entry.slice(prefix.length))
    .filter((name): name is ServiceIdentity => (SERVICE_IDENTITIES as readonly string[]).includes(name));
}

/** A handler's call or an interceptor's: both tell the peer's certificate. */
type AuthenticatedCall = Pick<ServerUnaryCall<unknown, unknown>, "getAuthContext">;

/**
 * The verified identity of a server call's peer: undefined without a TLS client certificate. The
 * TLS layer has already checked the certificate against the CA, once per connection; so is it read,
 * once per connection (its HTTP/2 session), not per call: getAuthContext() builds the certificate's
 * whole object (its fingerprints included) every time, one of the largest items of the table
 * service's CPU profile. A connection's peer cannot change its certificate without proving the key
 * of the one it changes to, so the first one read stays a true answer.
 */
export function callerOf(call: AuthenticatedCall): ServiceIdentity[] | undefined {
  const session = sessionOf(call);
  if (session && callerBySession.has(session)) return callerBySession.get(session);
  const caller = callerFromCertificate(call);
  if (session) callerBySession.set(session, caller);
  return caller;
}

/** Each connection's caller, for as long as its session lives. */
const callerBySession = new WeakMap<object, ServiceIdentity[] | undefined>();

/** Where grpc-js keeps the stream: on its first intercepting call, which each later one holds as `nextCall`. */
interface CallLink {
  call?: CallLink;
  nextCall?: CallLink;
  stream?: { session?: unknown };
}

/**
 * The HTTP/2 session a server call came on, where grpc-js keeps it: it offers no public handle on the
 * connection (grpc/grpc-node#2730). A handler's call holds its intercepting call (`call`), an
 * interceptor's call is one. Undefined if a release moves it; every call then reads the certificate
 * again (test/security/mtls-caller.test.ts fails, so that such a release is noticed).
 */
function sessionOf(call: AuthenticatedCall): object | undefined {
  let link: CallLink | undefined = (call as CallLink).call ?? (call as CallLink);
  while (link && !link.stream) link = link.nextCall;
  const session = link?.stream?.session;
  return typeof session === "object" && session !== null ? session : undefined;
}

function callerFromCertificate(call: AuthenticatedCall): ServiceIdentity[] | undefined {
  const cert = call.getAuthContext().sslPeerCertificate;
  if (!cert || Object.keys(cert).length === 0) return undefined;
  return identitiesOf(cert);
}

/** The service a generated client talks to, from its package: pokerodds.wallet.v1 -> wallet. */
export function identityOfService(serviceName: string): ServiceIdentity | undefined {
  const name = serviceName.split(".")[1];
  return (SERVICE_IDENTITIES as readonly string[]).includes(name ?? "") ? (name as ServiceIdentity) : undefined;
}
