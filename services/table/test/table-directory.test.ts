// Which tables a player's seats are looked for at (TableDirectory.sharedTables), on embedded FerretDB:
// the public ones, any written above TABLE_COUNT while it was higher (however long ago), and the
// tables active lately below the personal ones; never another player's personal table.
import test from "ava";
import { FIRST_PERSONAL_TABLE_ID } from "@pokerodds/common/table-ids";
import type { WalletPort } from "../src/dependencies.js";
import { SnapshotStore } from "../src/snapshot-store.js";
import { TableDirectory } from "../src/table-directory.js";
import { embeddedDatabase } from "./helpers/database.js";
import { newTable, sit } from "./helpers/fixtures.js";

const database = embeddedDatabase(test);

test("the shared tables: the public ones, those written above TABLE_COUNT long ago, no personal table", async (t) => {
  const store = new SnapshotStore(database.fresh());
  // Written long ago (never noted active): table 30 when TABLE_COUNT was higher, a personal table.
  await store.load([sit(newTable(30), "p1", 100), sit(newTable(FIRST_PERSONAL_TABLE_ID + 5), "p2", 100)]);
  // Played now, through the store: a table above TABLE_COUNT another replica configured.
  await store.apply(40, { key: "sit-40", fingerprint: "" }, (latest, now) => ({
    next: sit(latest, "p3", 100, now),
    result: null,
  }));
  const directory = new TableDirectory(store, {} as WalletPort, 20);
  const expected = [...Array.from({ length: 20 }, (_, i) => i + 1), 30, 40];
  t.deepEqual(await directory.sharedTables(), expected);
  t.deepEqual(await directory.sharedTables(), expected, "and again, from what was read");
});

test("primed at start-up, the list of written tables is read once and no call waits for its probes", async (t) => {
  const store = new SnapshotStore(database.fresh());
  const probed: number[] = [];
  const registeredAmong = store.registeredAmong.bind(store);
  store.registeredAmong = (tableIds) => {
    probed.push(tableIds.length);
    return registeredAmong(tableIds);
  };
  const directory = new TableDirectory(store, {} as WalletPort, 20);
  await directory.prime();
  t.deepEqual(probed, [FIRST_PERSONAL_TABLE_ID - 21], "every id between TABLE_COUNT and the personal tables");
  t.deepEqual(
    await directory.sharedTables(),
    Array.from({ length: 20 }, (_, i) => i + 1),
  );
  t.deepEqual(probed, [FIRST_PERSONAL_TABLE_ID - 21], "the first call answered from the primed list");
});
