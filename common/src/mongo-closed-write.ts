// A workaround for a bug of the mongodb driver (7.9.0 and 7.9.1, the newest): a command written on a
// pooled connection that the server has just closed waits forever.
//
// The window: the server's FIN is read, Node ends and destroys the socket, and its 'close' comes a
// turn of the event loop later. An operation that checks the connection out in that turn writes to
// the destroyed socket: write() answers false without an error, so the driver waits for a 'drain'
// that never comes. Neither the connection's clean-up on 'close', nor socketTimeoutMS (a destroyed
// socket has no timer), nor waitQueueTimeoutMS ends that wait. Seen after kill -9 of the database: the
// operation held its account's queue (common/per-key-queue.ts) until the wallet was restarted.
//
// Here a write also ends when its connection closes, with the connection's own network error: the
// operation fails as an outage, and its caller retries under its idempotency key. The connection goes
// back to the pool, which discards it. common/test/mongo-closed-write.test.ts opens that window on
// purpose; without this, its operations hang.
import type { EventEmitter } from "node:events";
import { createRequire } from "node:module";
import { MongoNetworkError } from "mongodb";
import { counter } from "./metrics.js";

/** How often the bug struck: each is a write the driver would otherwise have waited on forever. */
export const writesEndedByClose = counter(
  "mongodb_writes_ended_by_close_total",
  "Writes on a connection that closed before they were sent, ended with its error (mongo-closed-write.ts)",
);

/** The parts of the driver's internal Connection (lib/cmap/connection.js) this relies on. */
interface DriverConnection extends EventEmitter {
  /** Set by the connection's clean-up, before it emits "close". */
  error?: Error;
  writeCommand(...args: unknown[]): Promise<void>;
}

let installed = false;

/** Idempotent; throws if the driver no longer has the internals it patches (then check the test). */
export function endWritesWhenConnectionsClose(): void {
  if (installed) return;
  const driverModule = createRequire(import.meta.url)("mongodb/lib/cmap/connection.js") as {
    Connection?: { prototype: DriverConnection };
  };
  const prototype = driverModule.Connection?.prototype;
  if (typeof prototype?.writeCommand !== "function") {
    throw new Error(
      "the mongodb driver's Connection.writeCommand is gone: is common/src/mongo-closed-write.ts still needed?",
    );
  }
  const writeCommand = prototype.writeCommand;
  prototype.writeCommand = function (this: DriverConnection, ...args: unknown[]): Promise<void> {
    // Its one caller has just checked that the connection is open.
    const closedError = () => this.error ?? new MongoNetworkError("the connection closed during a write");
    let onClose = () => {};
    const closed = new Promise<never>((_, reject) => {
      onClose = () => {
        writesEndedByClose.inc();
        reject(closedError());
      };
      this.once("close", onClose);
    });
    return Promise.race([writeCommand.apply(this, args), closed]).finally(() => this.off("close", onClose));
  };
  installed = true;
}
