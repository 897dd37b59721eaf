// Correctness rests on an acknowledged insert never being rolled back: the client insists on majority,
// journaled writes and majority reads from the primary, whatever a deployment's URI asks for; and on
// a database on another machine, on TLS that checks its certificate.
import test from "ava";
import { MongoClient } from "mongodb";
import { ConfigError } from "../src/config.js";
import { insecureTransport, openDatabase } from "../src/mongo.js";
import { createLogger } from "../src/logger.js";

test("a URI asking for weaker writes or reads gets majority, journaled, from the primary", async (t) => {
  const weak = "mongodb://127.0.0.1:1/?w=1&journal=false&readConcernLevel=local&readPreference=secondaryPreferred";
  const database = openDatabase({
    uri: weak,
    name: "durability",
    logger: createLogger("test"),
    setUp: async () => {},
    onStatusChange: () => {},
    onWritableChange: () => {},
  });
  try {
    t.like(database.db.writeConcern, { w: "majority", journal: true });
    t.is(database.db.readConcern?.level, "majority");
    t.is(database.db.readPreference.mode, "primary");
  } finally {
    await database.close();
  }
});

// The URI decides the transport: a plain `mongodb://` URI to another machine would carry the ledger
// in the clear, and a Secret could switch TLS off without a word.
test("a database on another machine is reached over TLS that checks its certificate, unless allowed otherwise", (t) => {
  const transport = (uri: string) => insecureTransport(new MongoClient(uri));
  for (const local of [
    "mongodb://127.0.0.1:27017/",
    "mongodb://localhost/",
    "mongodb://[::1]:27017/",
    "mongodb://%2Ftmp%2Fmongodb-27017.sock/",
  ]) {
    t.is(transport(local), null, local);
  }
  t.is(transport("mongodb://db.example:27017/?tls=true"), null);
  t.is(transport("mongodb+srv://cluster.example.net/"), null, "an SRV URI is TLS unless it says otherwise");
  t.regex(transport("mongodb://db.example:27017/") ?? "", /without TLS/);
  t.regex(transport("mongodb://127.0.0.1:1,db.example:27017/?replicaSet=rs0") ?? "", /without TLS/);
  t.regex(transport("mongodb+srv://cluster.example.net/?tls=false") ?? "", /without TLS/);
  for (const unchecked of ["tlsAllowInvalidCertificates", "tlsAllowInvalidHostnames", "tlsInsecure"]) {
    t.regex(transport(`mongodb://db.example/?tls=true&${unchecked}=true`) ?? "", /accepts any certificate/, unchecked);
  }

  const open = (allowPlaintext: boolean) =>
    openDatabase({
      uri: "mongodb://db.example:27017/",
      name: "transport",
      logger: createLogger("test"),
      setUp: async () => {},
      onStatusChange: () => {},
      onWritableChange: () => {},
      allowPlaintext,
    });
  t.throws(() => open(false), { instanceOf: ConfigError, message: /MONGODB_ALLOW_PLAINTEXT=1/ });
  return open(true).close();
});
