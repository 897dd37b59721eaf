import { connect } from "node:net";
import { pkiDir } from "@pokerodds/common/stack-layout";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { TRACING_REGISTER_MODULE, tracingEnabled } from "@pokerodds/common/tracing/enabled";
import { describeExit, spawnChild, stopChildren, type Child, type Exit, type Output } from "./child.js";
import { startFerretDB } from "./ferretdb.js";
import { repoPath } from "./paths.js";
import { ensurePki, tlsEnvironment, type Pki } from "./pki.js";
import { freePorts, isPortFree } from "./ports.js";

export type ServiceName = "odds" | "wallet" | "table" | "gateway";
/** Backends that can run as several replicas behind one address list. */
export type ReplicatedService = Exclude<ServiceName, "gateway">;
/**
 * "db" exists only when the stack runs the embedded database. A service's first replica is named
 * after it, further ones `<service>-2`, `<service>-3`...
 */
export type ChildName = ServiceName | "db" | `${ReplicatedService}-${number}`;
export type { Output };

export interface StackOptions {
  /** Gateway HTTP port; 0 picks a free one. */
  port: number;
  /** Root of the local state: the embedded database lives in `<dataDir>/db`. Absolute is safest. */
  dataDir: string;
  /**
   * Where MONGODB_URI, AUTH_*, TABLE_COUNT and LOG_LEVEL are read from, and the base environment
   * of every child (PATH, NODE_OPTIONS...). Defaults to process.env.
   */
  env?: NodeJS.ProcessEnv;
  /** Children's stdout and stderr. Defaults to "inherit". */
  output?: Output;
  /**
   * For the whole start-up, until /api/health answers 200, and for each child started again
   * (startService). Defaults to 60 s.
   */
  readyTimeoutMs?: number;
  /** Cancels a start-up in progress: what was started is stopped and startStack rejects. */
  signal?: AbortSignal;
  /** A child ended on its own after start-up (not through stop, stopService or killService). */
  onUnexpectedExit?: (name: ChildName, exit: Exit) => void;
  /** Processes per backend service (default 1 each); callers reach them round-robin. */
  replicas?: Partial<Record<ReplicatedService, number>>;
}

export interface Stack {
  /** The gateway, e.g. http://127.0.0.1:8080 (the API is under /api). */
  url: string;
  mongodbUri: string;
  /** False when MONGODB_URI was given and no database was started. */
  embeddedDatabase: boolean;
  /** Running children, in start order. */
  children(): { name: ChildName; pid: number }[];
  /** Every service process's Prometheus endpoint. */
  metricsUrls(): { name: ChildName; url: string }[];
  /** Each gRPC service's address, as its clients are given it (an operator's tool needs the wallet's). */
  grpcAddresses: Record<ReplicatedService, string>;
  /** SIGTERMs one child and waits until it is gone; the rest keep running. */
  stopService(name: ChildName): Promise<void>;
  /** SIGKILLs one child, as a crash would, and waits until it is gone. */
  killService(name: ChildName): Promise<void>;
  /**
   * Starts a child that is not running (stopped, killed or crashed) again, on the same port and with
   * the same environment, and waits until it listens; rejects at once if it ends meanwhile. One that
   * does not listen within readyTimeoutMs is SIGKILLed before it rejects: a rejected start leaves no
   * process of that child running.
   */
  startService(name: ChildName): Promise<void>;
  /** Stops everything, gateway first and database last; SIGKILL for whatever outlives graceMs. */
  stop(graceMs?: number): Promise<void>;
}

const serviceOrder: ServiceName[] = ["odds", "wallet", "table", "gateway"];
/** Reverse dependency order: nothing loses a dependency while it may still be using it. */
const stopPhases: ServiceName[][] = [["gateway"], ["table"], ["wallet", "odds"]];
/** Environment the launcher sets per child; never inherited from the launcher's own. */
const contractVariables = [
  "PORT",
  "GRPC_PORT",
  "METRICS_PORT",
  "MONGODB_URI",
  "MONGODB_DATABASE",
  "ODDS_ADDR",
  "WALLET_ADDR",
  "TABLE_ADDR",
  "TABLE_COUNT",
  "DATA_DIR",
  "AUTH_JWKS_URL",
  "AUTH_ISSUER",
  "AUTH_AUDIENCE",
  "HOST",
  "GRPC_HOST",
  "METRICS_HOST",
  // Kubernetes' plaintext probe port: one fixed port would clash between the local processes.
  "HEALTH_PORT",
  "TLS_CA_FILE",
  "TLS_CERT_FILE",
  "TLS_KEY_FILE",
  // Set per process when tracing is on (childEnvironments).
  "OTEL_SERVICE_NAME",
];
/** Everything but the gateway's HTTP port is for this machine only. */
const LOOPBACK = "127.0.0.1";
const entryPoints: Record<ServiceName, string> = {
  odds: repoPath("services/odds/dist/main.js"),
  wallet: repoPath("services/wallet/dist/main.js"),
  table: repoPath("services/table/dist/main.js"),
  gateway: repoPath("gateway/dist/main.js"),
};
const orphanGuard = new URL("./orphan-guard.js", import.meta.url).href;

/**
 * Node's arguments for a service process. With tracing on (OTEL_* in the launcher's environment),
 * the tracing register module is imported first, so that the SDK is started before the service's
 * first line; with it off, the process never loads the SDK.
 */
function nodeArguments(service: ServiceName, tracing: boolean): string[] {
  const preload = tracing ? ["--import", TRACING_REGISTER_MODULE.href] : [];
  return [...preload, "--import", orphanGuard, entryPoints[service]];
}

/** Starts the database, the odds, wallet and table services and the gateway; resolves once /api/health is 200. */
export async function startStack(options: StackOptions): Promise<Stack> {
  const env = options.env ?? process.env;
  const output = options.output ?? "inherit";
  const readyTimeoutMs = options.readyTimeoutMs ?? 60_000;
  const children = new Supervisor(options.onUnexpectedExit);
  const abort = () => children.wire.trip(new Error("start-up cancelled"));
  options.signal?.addEventListener("abort", abort, { once: true });

  const { instances, serviceOf } = instanceNames(options.replicas);
  const embeddedDatabase = !env.MONGODB_URI;
  const { ports, metricsPorts } = await allocatePorts(options.port, serviceOf);
  const portOf = (name: ChildName) => ports.get(name)!;
  const address = (service: ReplicatedService) => grpcAddress(instances[service], portOf);
  // The embedded database's address is known once it runs (the same when it is started again).
  const database = { uri: env.MONGODB_URI || undefined };
  // The development CA and one certificate per service (mutual TLS on every gRPC hop).
  const pki = await ensurePki(pkiDir(options.dataDir));
  const childEnv = childEnvironments(env, options.dataDir, instances, portOf, () => database.uri, pki);
  const url = `http://127.0.0.1:${portOf("gateway")}`;

  /** Starts one child and waits until it listens; `wire` ends the wait early (an exit, a stop). */
  const startChild = async (name: ChildName, deadline: number, wire: Tripwire) => {
    if (name === "db") {
      // Not raced against the wire: it is ready in milliseconds, and a child still starting when we
      // gave up would be left out of `running`, so out of stop().
      const db = await startFerretDB({ dataDir: join(options.dataDir, "db"), output });
      if (children.stopped) {
        // stop() began while it was starting (a restart in flight): it missed this one.
        await db.stop(2000);
        throw new Error("the stack is stopping");
      }
      database.uri = db.uri;
      children.watch(db.child, "db");
      return;
    }
    const service = serviceOf.get(name);
    if (!service) throw new Error(`no such service: ${name}`);
    const child = spawnChild(name, process.execPath, nodeArguments(service, tracingEnabled(env)), {
      env: { ...childEnv[service](portOf(name)), METRICS_PORT: String(metricsPorts.get(name)) },
      output,
    });
    children.watch(child, name);
    await untilListening(name, portOf(name), deadline, wire, () => children.killOne(name));
  };

  const stop = async (graceMs = 7000) => {
    children.stopped = true;
    children.endWaits(new Error("the stack is stopping"));
    options.signal?.removeEventListener("abort", abort);
    await children.stopAll(
      [...stopPhases.map((phase) => phase.flatMap((service) => instances[service])), ["db"]],
      graceMs,
    );
  };

  try {
    const deadline = Date.now() + readyTimeoutMs;
    if (embeddedDatabase) await startChild("db", deadline, children.wire);
    for (const service of serviceOrder)
      for (const name of instances[service]) await startChild(name, deadline, children.wire);
    await untilHealthy(url, deadline, children.wire);
  } catch (error) {
    await stop(2000);
    throw error;
  }
  options.signal?.removeEventListener("abort", abort);
  children.started = true;

  return {
    url,
    mongodbUri: database.uri!,
    embeddedDatabase,
    children: () => [...children.running].map(([name, child]) => ({ name, pid: child.pid })),
    metricsUrls: () => [...metricsPorts].map(([name, port]) => ({ name, url: `http://127.0.0.1:${port}/metrics` })),
    grpcAddresses: { odds: address("odds"), wallet: address("wallet"), table: address("table") },
    stopService: (name) => children.stopOne(name),
    killService: (name) => children.killOne(name),
    startService: async (name) => {
      if (children.stopped) throw new Error("the stack is stopped");
      if (children.running.has(name)) throw new Error(`${name} is already running`);
      if (name === "db" && !embeddedDatabase) throw new Error("no embedded database: MONGODB_URI is set");
      await children.waitingFor(name, (wire) => startChild(name, Date.now() + readyTimeoutMs, wire));
    },
    stop,
  };
}

/** The stack's children: which run, which are being stopped on purpose, and who is told of an exit. */
class Supervisor {
  readonly running = new Map<ChildName, Child>();
  private readonly stopping = new Set<ChildName>();
  /** Set once start-up succeeded: from then on an unexpected exit is reported. */
  started = false;
  /** Set by stop(): exits are expected from then on. */
  stopped = false;
  /** Trips when any child ends during start-up, so the wait ends at once, naming it. */
  readonly wire = tripwire();
  /** Children started again (startService): each wait ends when that child ends, or at stop(). */
  private readonly waits = new Map<ChildName, Tripwire>();

  constructor(private readonly onUnexpectedExit: StackOptions["onUnexpectedExit"]) {}

  watch(child: Child, name: ChildName): void {
    this.running.set(name, child);
    void child.exited.then((exit) => {
      if (this.running.get(name) === child) this.running.delete(name);
      if (this.stopped || this.stopping.has(name)) return;
      this.wire.trip(new Error(`${name} ${describeExit(exit)}`));
      this.waits.get(name)?.trip(new Error(`${name} ${describeExit(exit)}`));
      if (this.started) this.onUnexpectedExit?.(name, exit);
    });
  }

  /**
   * Runs `start` with a wire of its own for `name`: after start-up one child's exit must not cut
   * short another's restart, but its own must end the wait at once.
   */
  async waitingFor(name: ChildName, start: (wire: Tripwire) => Promise<void>): Promise<void> {
    const wire = tripwire();
    this.waits.set(name, wire);
    try {
      await start(wire);
    } finally {
      if (this.waits.get(name) === wire) this.waits.delete(name);
    }
  }

  /** Ends every wait for a child being started again. */
  endWaits(error: Error): void {
    for (const wire of this.waits.values()) wire.trip(error);
  }

  /** Stops the running children phase by phase; SIGKILL for whatever outlives graceMs. */
  async stopAll(phases: ChildName[][], graceMs: number): Promise<void> {
    await stopChildren(
      phases.map((phase) => phase.flatMap((name) => this.running.get(name) ?? [])),
      graceMs,
    );
  }

  /** SIGTERMs one child and waits until it is gone. */
  async stopOne(name: ChildName): Promise<void> {
    const child = this.running.get(name);
    if (!child) return;
    this.stopping.add(name);
    await stopChildren([[child]], 5000).finally(() => this.stopping.delete(name));
  }

  /** SIGKILLs one child, as a crash would, and waits until it is gone. */
  async killOne(name: ChildName): Promise<void> {
    const child = this.running.get(name);
    if (!child) return;
    this.stopping.add(name);
    child.kill("SIGKILL");
    await child.exited.finally(() => this.stopping.delete(name));
  }
}

/** Each service's process names: the first replica is named after it, further ones `<service>-2`... */
function instanceNames(replicas: StackOptions["replicas"]): {
  instances: Record<ServiceName, ChildName[]>;
  serviceOf: Map<ChildName, ServiceName>;
} {
  const count = (service: ServiceName) =>
    service === "gateway" ? 1 : Math.max(1, Math.floor(replicas?.[service] ?? 1));
  const instances = Object.fromEntries(
    serviceOrder.map((service) => [
      service,
      Array.from({ length: count(service) }, (_, i) => (i === 0 ? service : `${service}-${i + 1}`) as ChildName),
    ]),
  ) as Record<ServiceName, ChildName[]>;
  const serviceOf = new Map(serviceOrder.flatMap((service) => instances[service].map((name) => [name, service])));
  return { instances, serviceOf };
}

/**
 * Each service's environment for a process on `port`: the launcher's own, without the variables it
 * sets itself, plus where its dependencies are. `mongodbUri` is read when a process starts.
 */
function childEnvironments(
  env: NodeJS.ProcessEnv,
  dataDir: string,
  instances: Record<ServiceName, ChildName[]>,
  portOf: (name: ChildName) => number,
  mongodbUri: () => string | undefined,
  pki: Pki,
): Record<ServiceName, (port: number) => NodeJS.ProcessEnv> {
  const common = { ...env };
  for (const name of contractVariables) delete common[name];
  const hosts = { GRPC_HOST: LOOPBACK, METRICS_HOST: LOOPBACK };
  // With tracing on, each process names itself in its spans.
  const tracing = (service: ServiceName) => (tracingEnabled(env) ? { OTEL_SERVICE_NAME: `pokerodds-${service}` } : {});
  const base = (service: ServiceName) => ({
    ...common,
    ...hosts,
    ...tlsEnvironment(pki.files[service]),
    ...tracing(service),
  });
  const optional = (...names: string[]) =>
    Object.fromEntries(names.filter((name) => env[name]).map((name) => [name, env[name]]));
  const address = (service: ReplicatedService) => grpcAddress(instances[service], portOf);
  return {
    odds: (port) => ({ ...base("odds"), GRPC_PORT: String(port) }),
    wallet: (port) => ({ ...base("wallet"), GRPC_PORT: String(port), MONGODB_URI: mongodbUri() }),
    table: (port) => ({
      ...base("table"),
      ...optional("TABLE_COUNT"),
      GRPC_PORT: String(port),
      MONGODB_URI: mongodbUri(),
      ODDS_ADDR: address("odds"),
      WALLET_ADDR: address("wallet"),
    }),
    gateway: (port) => ({
      ...base("gateway"),
      // The gateway's own HTTP port: loopback too unless HOST says otherwise.
      HOST: env.HOST || LOOPBACK,
      ...optional("AUTH_JWKS_URL", "AUTH_ISSUER", "AUTH_AUDIENCE"),
      PORT: String(port),
      ODDS_ADDR: address("odds"),
      WALLET_ADDR: address("wallet"),
      TABLE_ADDR: address("table"),
      DATA_DIR: dataDir,
    }),
  };
}

/** One replica: host:port. Several: grpc-js's ipv4: list, which clients balance round-robin. */
function grpcAddress(names: readonly ChildName[], portOf: (name: ChildName) => number): string {
  const list = names.map((name) => `${LOOPBACK}:${portOf(name)}`);
  return list.length === 1 ? list[0]! : `ipv4:${list.join(",")}`;
}

/**
 * Waits until a child just started listens on `port`. One that still does not at the deadline is
 * hung, not slow: `kill` SIGKILLs it and waits until it is gone, so that a failed start never leaves
 * a process that does not serve, and the restart policy counts it like a crash at start. A wait the
 * wire ends (that child ended, the stack stops) leaves the process to whatever tripped it.
 */
export async function untilListening(
  name: string,
  port: number,
  deadline: number,
  wire: Tripwire,
  kill: () => Promise<void>,
): Promise<void> {
  // To 100 ms: the deadline was set a few ms before the spawn, and the log should read 60000 ms.
  const timeoutMs = Math.max(0, Math.round((deadline - Date.now()) / 100) * 100);
  const what = () => `${name} did not listen on port ${port}`;
  try {
    await until(() => accepts(port), deadline, wire, what);
  } catch (error) {
    if (wire.tripped) throw error;
    await kill();
    throw new Error(`${what()} within ${timeoutMs} ms, so it was killed (SIGKILL)`);
  }
}

/** Polls the gateway's health until it answers 200; the error names its last answer. */
async function untilHealthy(url: string, deadline: number, wire: Tripwire): Promise<void> {
  let last = "no answer";
  const healthy = async () => {
    const answer = await health(url);
    last = answer.detail;
    return answer.ok;
  };
  await until(healthy, deadline, wire, () => `GET ${url}/api/health did not answer 200 (last: ${last})`);
}

/**
 * The gateway gets httpPort (0: any free one), every other instance a free port, and each a metrics
 * port, all drawn in one call so that no port is handed out twice, nor the one the user chose. (The
 * embedded database listens on a Unix socket in its own directory, so its address never changes.)
 */
async function allocatePorts(
  httpPort: number,
  serviceOf: Map<ChildName, ServiceName>,
): Promise<{ ports: Map<ChildName, number>; metricsPorts: Map<ChildName, number> }> {
  if (httpPort !== 0 && !(await isPortFree(httpPort)))
    throw new Error(`port ${httpPort} is already in use (set PORT to another)`);
  const names = [...serviceOf.keys()];
  const free = await freePorts(2 * names.length, { avoid: httpPort !== 0 ? [httpPort] : [] });
  const ports = new Map(names.map((name, i) => [name, free[i]!]));
  const metricsPorts = new Map(names.map((name, i) => [name, free[names.length + i]!]));
  if (httpPort !== 0) ports.set("gateway", httpPort);
  return { ports, metricsPorts };
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ port, host: "127.0.0.1", timeout: 1000 });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket
      .once("connect", () => done(true))
      .once("error", () => done(false))
      .once("timeout", () => done(false));
  });
}

async function health(url: string): Promise<{ ok: boolean; detail: string }> {
  try {
    const response = await fetch(`${url}/api/health`, { signal: AbortSignal.timeout(2000) });
    return {
      ok: response.status === 200,
      detail: `status ${response.status}: ${(await response.text()).slice(0, 300)}`,
    };
  } catch (error) {
    return { ok: false, detail: String(error) };
  }
}

/** Ends a wait early: the first trip rejects `promise` with its error. */
export interface Tripwire {
  readonly promise: Promise<never>;
  readonly tripped: boolean;
  trip(error: Error): void;
}

export function tripwire(): Tripwire {
  let reject!: (error: Error) => void;
  const promise = new Promise<never>((_, rejectPromise) => (reject = rejectPromise));
  promise.catch(() => {});
  let tripped = false;
  return {
    promise,
    get tripped() {
      return tripped;
    },
    trip: (error) => {
      tripped = true;
      reject(error);
    },
  };
}

/** Polls `check` until it is true; fails at the deadline or as soon as the wire trips. */
async function until(
  check: () => Promise<boolean>,
  deadline: number,
  wire: Tripwire,
  what: () => string,
): Promise<void> {
  const poll = async () => {
    while (Date.now() < deadline && !wire.tripped) {
      if (await check()) return true;
      await sleep(200);
    }
    return false;
  };
  if (!(await Promise.race([poll(), wire.promise]))) throw new Error(`${what()} in time`);
}
