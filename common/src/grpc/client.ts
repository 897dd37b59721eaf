import {
  Metadata,
  type ChannelCredentials,
  propagate,
  type CallOptions as GrpcCallOptions,
  type Client,
  type ClientUnaryCall,
  type ServerUnaryCall,
  type ServiceError,
} from "@grpc/grpc-js";
import { endRpcSpan, startClientSpan } from "../tracing/grpc-span.js";
import { REQUEST_ID_KEY } from "./metadata.js";
import {
  channelCredentials,
  channelCredentialsFromEnv,
  identityOfService,
  TRUST_DOMAIN,
  type ServiceIdentity,
  type TlsFiles,
} from "./tls.js";

export interface CallOptions {
  /** Per-call deadline; every call has one. */
  deadlineMs?: number;
  requestId?: string;
  /** The server call this one is made for: its cancellation carries over, and its deadline less PARENT_ANSWER_MARGIN_MS. */
  parent?: ServerUnaryCall<unknown, unknown>;
  /** Cancels the call when it aborts (its server learns of it: callEnded). */
  signal?: AbortSignal;
}

type UnaryMethod<Req, Res> = (
  request: Req,
  metadata: Metadata,
  options: Partial<GrpcCallOptions>,
  callback: (error: ServiceError | null, response: Res) => void,
) => ClientUnaryCall;

/** The promise-returning view of a ts-proto client: one method per unary RPC. */
export type PromiseClient<C> = {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- matches any unary method's last overload
  [K in keyof C as C[K] extends UnaryMethod<any, any> ? K : never]: C[K] extends UnaryMethod<infer Req, infer Res>
    ? (request: Req, options?: CallOptions) => Promise<Res>
    : never;
};

/** The longest wait between two attempts to connect to a peer that is down (grpc-js adds up to 20 % jitter). */
export const MAX_RECONNECT_BACKOFF_MS = 2_000;

/**
 * The shortest time between two lookups of a target's name (a headless Service's pods). grpc-js
 * looks again when the addresses it knows stop answering, but at most every 30 s by default: in a
 * rolling update, once every pod it knew had been replaced by pods at new addresses, a client had
 * none to call until then.
 */
export const MIN_TIME_BETWEEN_LOOKUPS_MS = 1_000;

/**
 * While calls run on a connection, a ping goes out this long after the last one answered, and the
 * connection is dropped when the ping is not answered within KEEPALIVE_TIMEOUT_MS. A frozen peer (a
 * stopped process, a paused VM) keeps its connection open, and round-robin sends it its share of the
 * calls, each failing at its deadline, until then: with grpc-js's 20 s timeout after our earlier
 * 30 s, for up to 50 s. Its peers are our own grpc-js servers, which set no limit on pings.
 */
export const KEEPALIVE_TIME_MS = 10_000;
export const KEEPALIVE_TIMEOUT_MS = 10_000;

/**
 * The load-balancing policy of every channel to one of our services (calls and health checks alike):
 * calls spread over every address its target resolves to (replicas, a headless Kubernetes Service);
 * with one address it behaves like the default.
 */
export const ROUND_ROBIN = [{ round_robin: {} }];

/**
 * The options of every channel to one of our services (calls and health checks alike): how it finds
 * and reconnects to its peers, and whom it accepts.
 */
export function peerChannelOptions(expected: ServiceIdentity | undefined) {
  return {
    // A peer that was down is tried again at least this often: grpc-js's default backoff grows to
    // 120 s, so after a minute's outage calls failed for 30-44 s after the peer was back.
    "grpc.max_reconnect_backoff_ms": MAX_RECONNECT_BACKOFF_MS,
    "grpc.dns_min_time_between_resolutions_ms": MIN_TIME_BETWEEN_LOOKUPS_MS,
    // TLS: the server is checked by its certificate's SPIFFE identity, not a host name; a name
    // (rather than the IP address of the target) keeps SNI valid.
    "grpc.ssl_target_name_override": expected ?? TRUST_DOMAIN,
  };
}

export interface ClientSettings {
  defaultDeadlineMs: number;
  /**
   * Methods the channel may repeat after UNAVAILABLE: only those safe to repeat (reads, movements
   * that carry an idempotency key). An UNAVAILABLE can come after the server acted.
   */
  retryUnavailable?: readonly string[];
  /**
   * This process's certificate, key and CA (mutual TLS); the server must present a certificate
   * naming the service the client is for. When absent: TLS_* from the environment, or plaintext
   * where none are set (in-process tests only; our servers refuse plaintext).
   */
  tls?: TlsFiles;
  /**
   * For calls that may outlast a connection (an audit): no keepalive pings. grpc-js drops a
   * connection whose ping fails, and after a server's GOAWAY (it recycles connections after 5
   * minutes) every ping fails, which cut the calls still running on it within 30 s
   * (grpc/grpc-node#3068). Without pings they finish within the server's grace (LONGEST_CALL_MS).
   */
  longCalls?: boolean;
  /** The largest reply accepted, in bytes (16 MiB when absent); a larger one fails RESOURCE_EXHAUSTED. */
  maxReceiveBytes?: number;
}

/** A ts-proto client class: grpc-js's generic client constructor, which knows its RPCs' paths. */
type ClientConstructor<C> = (new (address: string, creds: ChannelCredentials, options?: object) => C) & {
  service: Record<string, { path: string }>;
};

/** grpc service-config names of the given client methods ("/pkg.Service/Method" paths). */
function methodConfigNames(service: Record<string, { path: string }>, methods: readonly string[]) {
  return methods.map((name) => {
    const path = service[name]?.path;
    if (!path) throw new Error(`client has no method ${name}`);
    const [, serviceName, method] = path.split("/");
    return { service: serviceName, method };
  });
}

/**
 * A call made for a server call ends this long before that call's own deadline, so that the server
 * can still answer with what failed (its dependency, by name) before its caller gives up on it and
 * can only blame the server: a leave whose wallet credit hung was answered "table service
 * unavailable" to the player, the gateway's deadline and the wallet call's ending together.
 */
const PARENT_ANSWER_MARGIN_MS = 500;

/** The call's own deadline, or earlier by the margin than the server call it is made for. */
function deadlineOf(options: CallOptions, settings: ClientSettings): number {
  const own = Date.now() + (options.deadlineMs ?? settings.defaultDeadlineMs);
  if (!options.parent) return own;
  return Math.min(own, Number(options.parent.getDeadline()) - PARENT_ANSWER_MARGIN_MS);
}

export function createClient<C extends Client>(
  Ctor: ClientConstructor<C>,
  methods: readonly string[],
  address: string,
  settings: ClientSettings,
): { raw: C; call: PromiseClient<C> } {
  const serviceConfig = {
    loadBalancingConfig: ROUND_ROBIN,
    ...(settings.retryUnavailable?.length
      ? {
          methodConfig: [
            {
              name: methodConfigNames(Ctor.service, settings.retryUnavailable),
              retryPolicy: {
                maxAttempts: 3,
                initialBackoff: "0.05s",
                maxBackoff: "0.5s",
                backoffMultiplier: 2,
                retryableStatusCodes: ["UNAVAILABLE"],
              },
            },
          ],
        }
      : {}),
  };
  // "/pokerodds.wallet.v1.WalletService/Debit": the server must be the wallet.
  const expected = identityOfService(Object.values(Ctor.service)[0]?.path.split("/")[1] ?? "");
  const creds = settings.tls ? channelCredentials(settings.tls, expected) : channelCredentialsFromEnv(expected);
  const raw = new Ctor(address, creds, {
    "grpc.service_config": JSON.stringify(serviceConfig),
    ...(settings.longCalls
      ? {}
      : { "grpc.keepalive_time_ms": KEEPALIVE_TIME_MS, "grpc.keepalive_timeout_ms": KEEPALIVE_TIMEOUT_MS }),
    ...peerChannelOptions(expected),
    "grpc.max_receive_message_length": settings.maxReceiveBytes ?? 16 * 1024 * 1024,
  });
  const call = {} as Record<string, unknown>;
  for (const name of methods) {
    const method = (raw as unknown as Record<string, UnaryMethod<unknown, unknown>>)[name];
    const path = Ctor.service[name]?.path;
    if (typeof method !== "function" || !path) throw new Error(`client has no method ${name}`);
    call[name] = (request: unknown, options: CallOptions = {}) =>
      new Promise((resolve, reject) => {
        const metadata = new Metadata();
        if (options.requestId) metadata.set(REQUEST_ID_KEY, options.requestId);
        const span = startClientSpan(path, metadata);
        const callOptions: Partial<GrpcCallOptions> = { deadline: deadlineOf(options, settings) };
        if (options.parent) {
          callOptions.parent = options.parent;
          callOptions.propagate_flags = propagate.DEFAULTS;
        }
        const cancel = () => unaryCall.cancel();
        const unaryCall = method.call(raw, request, metadata, callOptions, (error, response) => {
          options.signal?.removeEventListener("abort", cancel);
          endRpcSpan(span, error ? error.code : 0, error?.details);
          if (error) reject(error);
          else resolve(response);
        });
        if (options.signal?.aborted) cancel();
        else options.signal?.addEventListener("abort", cancel, { once: true });
      });
  }
  return { raw, call: call as PromiseClient<C> };
}
