// Correctness rests on an acknowledged insert never being rolled back: the client insists on majority,
// journaled writes and majority reads from the primary, whatever a deployment's URI asks for.
import test from "ava";
import { openDatabase } from "../src/mongo.js";
import { createLogger } from "../src/logger.js";

test("a URI asking for weaker writes or reads gets majority, journaled, from the primary", async (t) => {
  const weak = "mongodb://127.0.0.1:1/?w=1&journal=false&readConcernLevel=local&readPreference=secondaryPreferred";
  const database = openDatabase({
    uri: weak,
    name: "durability",
    logger: createLogger("test"),
    setUp: async () => {},
    onStatusChange: () => {},
  });
  try {
    t.like(database.db.writeConcern, { w: "majority", journal: true });
    t.is(database.db.readConcern?.level, "majority");
    t.is(database.db.readPreference.mode, "primary");
  } finally {
    await database.close();
  }
});
