// The embedded FerretDB is built with launcher/ferretdb/patches/insert-failure-atomic.patch: an
// ordered insertMany that fails for any reason but a duplicate stores none of its documents. Stock
// v1.24 retried the failed batch one document at a time, so on a full disk a small first document
// was stored, a large second one refused, and the command failed all the same: the sequenced log's
// entry without its key document (common/src/sequenced-log.ts). Here the disk is made full by a
// file size limit on the database process (`ulimit -f`; Go ignores SIGXFSZ, so a write past it
// fails with EFBIG, which SQLite reports as an I/O error; on a full file system it says "database or
// disk is full"). The services take either for a database outage (isDatabaseOutage).
import { isDatabaseOutage } from "@pokerodds/common/mongo";
import test from "ava";
import { MongoClient } from "mongodb";
import { spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { ferretdbBinary } from "../src/ferretdb.js";

/** The database's files may not grow past this many blocks of `ulimit -f` (512 or 1,024 bytes each). */
const FILE_BLOCKS = 2_048;

test("an ordered insert that fails on a full disk stores none of its documents", async (t) => {
  const dataDir = await mkdtemp(join(tmpdir(), "pokerodds-ferretdb-full-"));
  const database = spawn("sh", ["-c", `ulimit -f ${FILE_BLOCKS} && exec "$0" -data "$1"`, ferretdbBinary, dataDir], {
    stdio: ["ignore", "pipe", "ignore"],
  });
  const client = new MongoClient(`mongodb://${encodeURIComponent(join(dataDir, "ferretdb.sock"))}/?retryWrites=false`);
  try {
    await new Promise((resolve) => createInterface({ input: database.stdout }).once("line", resolve));
    const log = client.db("full").collection<{ _id: string; entryId?: string; pad: string }>("log");
    // As the sequenced log appends: a small entry, then its key document (here a large one), in one
    // ordered insertMany, until fifty of them have failed.
    let failed = 0;
    let stored = 0;
    const notOutages: unknown[] = [];
    for (let seq = 0; failed < 50 && seq < 2_000; seq++) {
      try {
        await log.insertMany(
          [
            { _id: `stream:${seq}`, pad: "" },
            { _id: `k${seq}:key`, entryId: `stream:${seq}`, pad: "y".repeat(100_000) },
          ],
          { ordered: true },
        );
        stored++;
      } catch (error) {
        failed++;
        if (!isDatabaseOutage(error)) notOutages.push(error);
      }
    }
    const entries = await log.countDocuments({ _id: { $regex: /^stream:/ } });
    const keys = await log.countDocuments({ entryId: { $exists: true } });
    t.true(stored > 0 && failed === 50, `the disk filled up after ${stored} inserts`);
    t.is(entries, stored, "no entry of a failed insert was stored");
    t.is(keys, stored, "every stored entry has its key document");
    // The services answer it 503, to be sent again under the same key, not 500.
    t.deepEqual(notOutages, [], "a full disk is a database outage");
  } finally {
    await client.close();
    database.kill();
    await rm(dataDir, { recursive: true, force: true });
  }
});
