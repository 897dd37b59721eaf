// A MongoDB span shows its command's shape: field names to a bounded depth, never a value.
import test from "ava";
import { statementShape } from "../src/tracing/statement.js";

test("values, arrays, buffers and dates become ?; field names stay to depth 3", (t) => {
  const command = {
    insert: "entries",
    documents: [{ _id: "alice:7", amountCents: 12_345 }],
    ordered: true,
    filter: { _id: { $in: ["alice", "bob"] }, at: { $gte: new Date(0) }, deep: { a: { b: { c: 1 } } } },
    payload: Buffer.from("secret"),
  };
  t.is(
    statementShape(command),
    JSON.stringify({
      insert: "?",
      documents: "?",
      ordered: "?",
      filter: { _id: { $in: "?" }, at: { $gte: "?" }, deep: { a: { b: "?" } } },
      payload: "?",
    }),
  );
});

test("no player id or amount ever appears, however the command nests them", (t) => {
  const shape = statementShape({ update: "players", updates: [{ q: { _id: "player-42" }, u: { $inc: { b: 999 } } }] });
  t.notRegex(shape, /player-42|999/);
  t.is(statementShape({ find: "tables", filter: { _id: 1001 } }), '{"find":"?","filter":{"_id":"?"}}');
});

test("the driver's session and clock fields are not the statement: left out", (t) => {
  const sent = {
    find: "snapshots",
    filter: { _id: "T1:9" },
    lsid: { id: Buffer.alloc(16) },
    $db: "table",
    $clusterTime: { clusterTime: 1, signature: { hash: "x", keyId: 2 } },
    txnNumber: 4,
    $readPreference: { mode: "primary" },
  };
  t.is(statementShape(sent), '{"find":"?","filter":{"_id":"?"}}');
  // Only at the top, where the driver puts them: a document's own field of that name is shape.
  t.is(statementShape({ find: "x", filter: { lsid: 1 } }), '{"find":"?","filter":{"lsid":"?"}}');
});
