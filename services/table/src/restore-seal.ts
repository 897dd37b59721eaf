// After a restore from a backup (TABLE_RESTORED_FROM names it): every table ever written is sealed
// (domain/restore.ts says why) as part of the database set-up, so before the service takes a call.
// Once per restore, however many replicas start with the name and however often:
// - each table's seal is stored under a key of the restore and the table, so replicas sealing at
//   once make one change each, and no table is sealed twice: a game dealt after its table's seal
//   is never voided by a later pass;
// - a document of the restore, inserted once every table is sealed, spares later starts the pass.
//   It is read again once the tables are listed: a replica takes calls only after writing it, so a
//   list read while it is still missing holds no table first written since the restore, whose game
//   a seal would void (every stake refunded) though no player of it saw anything taken back.
import type { Logger } from "@pokerodds/common";
import { insertUnlessPresent } from "@pokerodds/common/mongo";
import type { Db } from "mongodb";
import pMap from "p-map";
import { sealRestored } from "./domain/index.js";
import { HEADS_AT_ONCE, SnapshotStore } from "./snapshot-store.js";

const RESTORES = "restores";

interface RestoreDocument {
  /** The restore's name (TABLE_RESTORED_FROM). */
  _id: string;
  sealedAt: Date;
  tables: number;
  voided: number;
}

const restoreSealKey = (restoredFrom: string, tableId: number): string => `restore:${restoredFrom}:${tableId}`;

/** Seals every table once for the restore named `restoredFrom`; voided games' refunds are left to recovery. */
export async function sealAfterRestore(db: Db, restoredFrom: string, logger: Logger): Promise<void> {
  const restores = db.collection<RestoreDocument>(RESTORES);
  const log = logger.child({ restoredFrom });
  const done = await restores.findOne({ _id: restoredFrom });
  if (done) {
    // Said at every start, for a name reused by a later restore (whose backup holds this document) seals nothing.
    log.info({ sealedAt: done.sealedAt }, "the tables were sealed for this restore already");
    return;
  }
  const store = new SnapshotStore(db);
  const tableIds = await store.tableIds();
  if (await restores.findOne({ _id: restoredFrom })) return;
  log.warn({ tables: tableIds.length }, "restored from a backup: sealing every table before taking a call");
  const voided = await pMap(
    tableIds,
    async (tableId) => {
      // Whether the seal voided a game is its stored answer: a pass after a crash, or another
      // replica's, counts the tables sealed before it too.
      const applied = await store.apply(
        tableId,
        { key: restoreSealKey(restoredFrom, tableId), fingerprint: "" },
        (latest, now) => {
          const next = sealRestored(latest, now);
          return { next, result: next.finishedGame?.outcome === "VOID" };
        },
      );
      return applied.result === true;
    },
    { concurrency: HEADS_AT_ONCE },
  );
  const sealed = { tables: tableIds.length, voided: voided.filter(Boolean).length };
  await insertUnlessPresent(() => restores.insertOne({ _id: restoredFrom, sealedAt: new Date(), ...sealed }));
  log.warn(sealed, "every table sealed after the restore: games in play void, undealt games on new seeds");
}
