import test from "ava";
import {
  MongoBulkWriteError,
  MongoNetworkError,
  MongoServerError,
  MongoServerSelectionError,
  MongoWriteConcernError,
} from "mongodb";
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
    { insertedCount: 0, getWriteConcernError: () => undefined } as never,
  );
  t.false(isDatabaseOutage(duplicate));
  t.true(isDuplicateKey(duplicate));
});

test("a replica set changing hands, and a write a majority did not confirm, are outages (retried under the same key)", (t) => {
  for (const [code, name] of [
    [10107, "NotWritablePrimary"],
    [189, "PrimarySteppedDown"],
    [11602, "InterruptedDueToReplStateChange"],
    [91, "ShutdownInProgress"],
  ] as const) {
    t.true(isDatabaseOutage(new MongoServerError({ message: name, code })), name);
  }
  t.true(
    isDatabaseOutage(new MongoWriteConcernError({ writeConcernError: { code: 64, errmsg: "timed out" } } as never)),
  );
  // insertMany's: the documents written on the primary, the majority's confirmation missing.
  const unconfirmed = new MongoBulkWriteError(
    { message: "waiting for replication timed out", code: 64 } as never,
    { insertedCount: 2, getWriteConcernError: () => ({ code: 64 }) } as never,
  );
  t.true(isDatabaseOutage(unconfirmed));
  // The server refusing the command itself is still not one.
  t.false(isDatabaseOutage(new MongoServerError({ message: "bad value", code: 2 })));
});

test("storage that fails under the database is an outage: a full disk, a lock held too long, an I/O error", (t) => {
  // FerretDB's answers, as received: a full tmpfs, a write lock held by another process past the busy
  // timeout, a file size limit; the last two from SQLite's messages.
  const ferretdb = (sqlite: string) =>
    new MongoServerError({
      message: `[msg_insert.go:162 handler.(*Handler).MsgInsert] [db.go:167 fsql.(*DB).InTransaction] ${sqlite}`,
      code: 1,
    });
  for (const sqlite of [
    "database or disk is full (13)",
    "database is locked (5) (SQLITE_BUSY)",
    "disk I/O error (778)",
    "attempt to write a readonly database (8)",
    "unable to open database file (14)",
  ]) {
    t.true(isDatabaseOutage(ferretdb(sqlite)), sqlite);
  }
  t.true(isDatabaseOutage(new MongoServerError({ message: "Out of disk space", code: 14031 })));
  // Another internal error of FerretDB's stays one.
  t.false(isDatabaseOutage(ferretdb("unexpected type (1)")));
  t.false(isDatabaseOutage(new MongoServerError({ message: "database or disk is full (13)", code: 2 })));
});
