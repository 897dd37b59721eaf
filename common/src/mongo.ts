import {
  MongoBulkWriteError,
  MongoClient,
  MongoError,
  MongoErrorLabel,
  MongoServerError,
  MongoWriteConcernError,
  type Db,
} from "mongodb";
import { ConfigError, envFlag, envString } from "./config.js";
import type { Logger } from "./logger.js";
import { counter, gauge } from "./metrics.js";
import { endWritesWhenConnectionsClose } from "./mongo-closed-write.js";
import { traceCommands } from "./tracing/mongodb-span.js";
import { TIMED_OUT, within } from "./within.js";

/**
 * Every command sent to the database, by name: the round trips a request costs, as measured. The write
 * probe's updates are left out (mongodb_writable reports them): sent on a timer, they would otherwise
 * count as an `update` of whatever request a test or a bench measured meanwhile.
 */
const commandsSent = counter(
  "mongodb_commands_total",
  "Commands sent to the database, by command (not the write probe's)",
  ["command"],
);

/** 1 while the last write probe succeeded (WRITE_PROBE_COLLECTION), 0 otherwise: before the first too. */
const writableGauge = gauge("mongodb_writable", "1 while the database took this process's last write probe, else 0");

/**
 * A ping is a read, and a database may answer reads while refusing every write (a full disk, a file
 * another process keeps locked): each database's one document here is written again every
 * WRITE_PROBE_INTERVAL_MS to find out. Nothing reads it.
 */
const WRITE_PROBE_COLLECTION = "write_probe";
const WRITE_PROBE_INTERVAL_MS = 10_000;
/**
 * A probe's write that has not answered by then counts as failed. Nothing else bounds it sooner: the
 * driver (7.9) ignores timeoutMS, and FerretDB holds a write behind another process's SQLite lock for
 * SQLite's busy timeout, 10 s, whatever maxTimeMS says, then answers "database is locked".
 * Milliseconds is normal; seconds is already a database that cannot take the players' moves in time.
 */
const WRITE_PROBE_TIMEOUT_MS = 5_000;

interface Database {
  client: MongoClient;
  db: Db;
  /** Resolves once the set-up (indexes) has run against a reachable server. */
  ready: Promise<void>;
  close(): Promise<void>;
}

/** Which database a service keeps its state in: MONGODB_URI, MONGODB_DATABASE, MONGODB_ALLOW_PLAINTEXT. */
export interface DatabaseSettings {
  uri: string;
  name: string;
  /** Plain text (or unchecked TLS) to a database on another machine: MONGODB_ALLOW_PLAINTEXT=1. */
  allowPlaintext: boolean;
}

/** The settings from the environment; `defaultName` is the service's own database. */
export function readDatabaseSettings(
  defaultName: string,
  env: Record<string, string | undefined> = process.env,
): DatabaseSettings {
  return {
    uri: envString("MONGODB_URI", "mongodb://127.0.0.1:27017/", env),
    name: envString("MONGODB_DATABASE", defaultName, env),
    allowPlaintext: envFlag("MONGODB_ALLOW_PLAINTEXT", env),
  };
}

interface DatabaseOptions {
  uri: string;
  name: string;
  logger: Logger;
  /** Idempotent set-up (createIndex calls), retried until the server answers. */
  setUp: (db: Db) => Promise<void>;
  onStatusChange: (up: boolean) => void;
  /** Whether the last write probe succeeded: the first probe's verdict, then each change. */
  onWritableChange: (writable: boolean) => void;
  pingIntervalMs?: number;
  /** Plain text (or unchecked TLS) to a database on another machine: MONGODB_ALLOW_PLAINTEXT=1. */
  allowPlaintext?: boolean;
  /** A pooled connection unused this long is closed (IDLE_CONNECTION_MS unless a test asks otherwise). */
  idleConnectionMs?: number;
}

/**
 * A burst opens up to the driver's 100 connections per process (each one holds memory at both ends:
 * buffers here, a goroutine in FerretDB, a thread in MongoDB); without a bound on idleness they stayed
 * open for good once opened. A minute keeps the connections of a steady load and gives the rest back.
 */
const IDLE_CONNECTION_MS = 60_000;

/** Loopback names and addresses, and a Unix socket: the connection never leaves this machine. */
const LOCAL_HOST = /^(localhost|127(\.\d{1,3}){3}|::1|\[::1\]|.*\.sock)$/i;

/**
 * Why the client's transport would carry the ledger and the tables in the clear (or to whoever
 * answers with any certificate) to another machine, or null. The URI decides the transport, so a
 * plain `mongodb://` URI in a Secret would otherwise switch TLS off without a word.
 */
export function insecureTransport({ options }: MongoClient): string | null {
  // An SRV URI names its hosts only once resolved, at the first connection.
  const hosts = [...options.hosts.map((address) => address.socketPath ?? address.host ?? ""), options.srvHost ?? ""];
  const remote = hosts.some((host) => host !== "" && !LOCAL_HOST.test(host));
  const weakness = remote ? transportWeakness({ options } as MongoClient) : null;
  return weakness && `MONGODB_URI connects to another machine ${weakness}`;
}

/** What the client's transport lacks to be sent across a network (TLS, or TLS that checks), or null. */
function transportWeakness({ options }: MongoClient): string | null {
  if (!options.tls) return "without TLS (add tls=true)";
  // The driver turns tlsInsecure, tlsAllowInvalidCertificates and tlsAllowInvalidHostnames into
  // Node's own TLS options: no certificate check, or a host name check that passes anything.
  if (options.rejectUnauthorized === false || options.checkServerIdentity !== undefined) {
    return "with TLS that accepts any certificate or host name";
  }
  return null;
}

/**
 * A replica set's members are learnt from its answers, not from the URI: seeds on this machine may
 * name a member on another one, which the driver would reach over the same transport. Over one that
 * may not cross a network, such a member closes the client as the driver finds it, before its first
 * command: the service reports its database unreachable, and the log says why. (The member's monitor
 * may have sent its greeting, the driver's name and version, and no more.)
 */
function refuseRemoteMembers(client: MongoClient, log: Logger): void {
  const weakness = transportWeakness(client);
  if (weakness === null) return;
  client.on("serverOpening", ({ address }) => {
    // "host:port", "[::1]:port", or a Unix socket's path alone.
    if (LOCAL_HOST.test(address.replace(/:\d+$/, ""))) return;
    log.error(
      { member: address },
      `the database's replica set has a member on another machine, which this client would reach ${weakness}: refused (MONGODB_ALLOW_PLAINTEXT=1 allows it on a private network you trust)`,
    );
    void client.close();
  });
}

/**
 * One MongoClient per process. The service starts even when the database is down: it reports
 * NOT_SERVING through health until the set-up has run and pings succeed, and follows later outages.
 */
export function openDatabase(options: DatabaseOptions): Database {
  endWritesWhenConnectionsClose();
  // No driver-retried writes: FerretDB cannot deduplicate them, and every write of ours that may
  // be repeated carries its own idempotency key instead.
  const client = new MongoClient(options.uri, {
    serverSelectionTimeoutMS: 2000,
    connectTimeoutMS: 2000,
    // A server that stops answering, or a pool that never frees a connection, would hold its
    // account's or table's writers forever. Bounded, the command fails as an outage; its caller
    // repeats it under the same idempotency key, so a write the server did apply is replayed.
    // (A write on a connection the server has just closed is ended by mongo-closed-write.ts.)
    socketTimeoutMS: 30_000,
    waitQueueTimeoutMS: 30_000,
    maxIdleTimeMS: options.idleConnectionMs ?? IDLE_CONNECTION_MS,
    appName: options.name,
    retryWrites: false,
    // Correctness rests on an acknowledged insert never being rolled back, and on no answer built
    // from one that may be: so majority, journaled, from the primary, whatever the URI says (options
    // given here win over the URI's w=, journal=, readConcernLevel= and readPreference=).
    w: "majority",
    journal: true,
    readConcernLevel: "majority",
    readPreference: "primary",
    // Stored documents (table snapshots, answers) drop undefined fields as JSON does, not store null.
    ignoreUndefined: true,
    monitorCommands: true,
  });
  const insecure = insecureTransport(client);
  if (insecure !== null && !options.allowPlaintext) {
    throw new ConfigError(
      `${insecure}; MONGODB_ALLOW_PLAINTEXT=1 allows it on a private network you trust (as the local Kubernetes overlay's in-cluster database)`,
    );
  }
  const log = options.logger.child({ database: options.name });
  if (!options.allowPlaintext) refuseRemoteMembers(client, log);
  client.on("commandStarted", (event) => {
    if (event.command.update !== WRITE_PROBE_COLLECTION) commandsSent.inc({ command: event.commandName });
  });
  traceCommands(client);
  const db = client.db(options.name);
  let up = false;
  let closed = false;
  let timer: NodeJS.Timeout | undefined;

  const setStatus = (next: boolean) => {
    if (next === up) return;
    up = next;
    if (next) log.info("database reachable");
    else log.warn("database unreachable");
    options.onStatusChange(next);
  };

  const ready = (async () => {
    for (let attempt = 1; !closed; attempt++) {
      try {
        // A failed first connection closes the driver's topology; connect() builds it anew.
        await client.connect();
        await options.setUp(db);
        return;
      } catch (error) {
        log.warn({ reason: String(error), attempt }, "database set-up failed, retrying");
        await new Promise((resolve) => setTimeout(resolve, Math.min(5000, 250 * attempt)));
      }
    }
  })();

  const ping = async () => {
    try {
      await db.command({ ping: 1 });
      setStatus(true);
    } catch {
      setStatus(false);
    }
    if (!closed) timer = setTimeout(() => void ping(), options.pingIntervalMs ?? 2000);
  };
  void ready.then(() => (closed ? undefined : ping()));
  const writeProbe = probeWrites(db, options.name, log, options.onWritableChange);
  void ready.then(() => (closed ? undefined : writeProbe.start()));

  return {
    client,
    db,
    ready,
    close: async () => {
      closed = true;
      clearTimeout(timer);
      writeProbe.stop();
      await client.close();
    },
  };
}

/**
 * Upserts `{ _id: name }` in WRITE_PROBE_COLLECTION every WRITE_PROBE_INTERVAL_MS and reports whether
 * it succeeded within WRITE_PROBE_TIMEOUT_MS. The next probe does not wait for a write still pending
 * at its deadline, which would put off seeing the database mended by as long as the write is held
 * (FerretDB's 10 s behind a lock, socketTimeoutMS's 30 s on a silent server); so at most
 * socketTimeoutMS / WRITE_PROBE_INTERVAL_MS of them are ever in flight.
 */
export function probeWrites(
  db: Db,
  name: string,
  log: Logger,
  onChange: (writable: boolean) => void,
  timing = { intervalMs: WRITE_PROBE_INTERVAL_MS, timeoutMs: WRITE_PROBE_TIMEOUT_MS },
) {
  const probes = db.collection<{ _id: string; at: Date }>(WRITE_PROBE_COLLECTION);
  // Unknown until the first probe, whose verdict is always reported: a database that never takes a
  // write from the start says so too.
  let writable: boolean | undefined = undefined;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  writableGauge.set(0);
  const setWritable = (next: boolean, reason?: string) => {
    if (next === writable) return;
    writable = next;
    writableGauge.set(next ? 1 : 0);
    if (next) log.info("database writable");
    else log.warn({ reason }, "database not writable");
    onChange(next);
  };
  const probe = async () => {
    // FerretDB's upsert is not atomic: replicas upserting the same document at once may find it
    // missing together, and all but one insert fails on the _id index, a write the database took.
    const write = probes.updateOne({ _id: name }, { $set: { at: new Date() } }, { upsert: true }).then(
      () => undefined,
      (error: unknown) => (isDuplicateKey(error) ? undefined : String(error)),
    );
    const answer = await within(write, timing.timeoutMs);
    const failure = answer === TIMED_OUT ? `no answer within ${timing.timeoutMs} ms` : answer;
    if (stopped) return;
    setWritable(failure === undefined, failure);
    timer = setTimeout(() => void probe(), timing.intervalMs);
  };
  return {
    start: () => void probe(),
    stop: () => {
      stopped = true;
      clearTimeout(timer);
    },
  };
}

/** Socket errors the driver can let through unwrapped, e.g. EPIPE on a write to a connection the server dropped. */
const SOCKET_ERROR_CODES = new Set(["EPIPE", "ECONNRESET", "ECONNREFUSED", "ETIMEDOUT", "EHOSTUNREACH", "ENETUNREACH"]);

/**
 * A replica set's server answers that it is changing hands or shutting down: the retryable reads'
 * and writes' codes of MongoDB's specifications (HostUnreachable, HostNotFound, NetworkTimeout,
 * ShutdownInProgress, PrimarySteppedDown, ExceededTimeLimit, SocketException, NotWritablePrimary,
 * InterruptedAtShutdown, InterruptedDueToReplStateChange, NotPrimaryNoSecondaryOk,
 * NotPrimaryOrSecondary, ReadConcernMajorityNotAvailableYet). The same request, retried, succeeds
 * once a primary is elected.
 */
const FAILOVER_CODES = new Set([6, 7, 89, 91, 189, 262, 9001, 10107, 11600, 11602, 13435, 13436, 134]);

/**
 * A write the server applied but a majority has not confirmed (a write concern error): a failover
 * may still roll it back, so its outcome is unknown. Never on FerretDB, which has no replicas.
 */
export function hasWriteConcernError(error: unknown): boolean {
  if (error instanceof MongoWriteConcernError) return true;
  return error instanceof MongoBulkWriteError && error.result.getWriteConcernError() !== undefined;
}

/** MongoDB's refusal of a write while its disk is nearly full. */
const OUT_OF_DISK_SPACE = 14031;
/**
 * SQLite's messages for storage that fails, as FerretDB passes them on: followed by SQLite's code, and
 * for some codes its name ("database is locked (5) (SQLITE_BUSY)").
 */
const SQLITE_STORAGE_FAULT =
  /(database or disk is full|database is locked|disk I\/O error|attempt to write a readonly database|unable to open database file) \(\d+\)( \(SQLITE_[A-Z_]+\))?$/;

/**
 * The storage under the database failed: MongoDB's OutOfDiskSpace, or FerretDB's InternalError
 * (code 1) with SQLite's message for a full disk, a database another process keeps locked past the
 * busy timeout, an I/O error, a file it may no longer write or open. None is the request's fault,
 * and each ends once the storage is mended: an outage, not an internal error.
 */
function isStorageFault(error: MongoServerError): boolean {
  if (error.code === OUT_OF_DISK_SPACE) return true;
  return error.code === 1 && SQLITE_STORAGE_FAULT.test(error.message);
}

/**
 * The database could not be reached, could not confirm a write, or its storage failed (an outage:
 * 503, retry with the same key), as opposed to an answer of the server itself (MongoServerError: a
 * refused insert, a bad command), which is not an outage.
 */
export function isDatabaseOutage(error: unknown): boolean {
  // insertMany reports a connection lost mid-command as a bulk write error that wraps it.
  if (error instanceof MongoBulkWriteError && error.errorResponse instanceof Error) {
    return isDatabaseOutage(error.errorResponse);
  }
  if (hasWriteConcernError(error)) return true;
  if (error instanceof MongoServerError) {
    return (
      FAILOVER_CODES.has(Number(error.code)) ||
      error.hasErrorLabel(MongoErrorLabel.RetryableWriteError) ||
      isStorageFault(error)
    );
  }
  if (error instanceof MongoError) return true;
  const code = (error as { code?: unknown } | null)?.code;
  return error instanceof Error && typeof code === "string" && SOCKET_ERROR_CODES.has(code);
}

/** An insert refused by a unique index: the one write that is atomic on FerretDB v1 and MongoDB alike. */
export function isDuplicateKey(error: unknown): boolean {
  return error instanceof MongoServerError && error.code === 11000;
}

/** Inserts, answering false instead of throwing when the document (or its unique key) already exists. */
export async function insertUnlessPresent(insert: () => Promise<unknown>): Promise<boolean> {
  try {
    await insert();
    return true;
  } catch (error) {
    if (isDuplicateKey(error)) return false;
    throw error;
  }
}
