// A replica set's members come from its answers, not the URI: seeds on this machine that name a
// member on another machine must not lead the client to send it the ledger in the clear. Two fake
// mongods: a secondary on 127.0.0.1 (the URI's seed), whose answers name the primary as 0.0.0.0:port
// (not a loopback name, though Linux connects it to this machine), which records what it is sent.
import test from "ava";
import { BSON } from "bson";
import { once } from "node:events";
import { createServer, type AddressInfo, type Server } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import { pino } from "pino";
import { Writable } from "node:stream";
import { openDatabase } from "../src/mongo.js";

const OP_MSG = 2013;
const OP_QUERY = 2004;
const OP_REPLY = 1;

/** A mongod that answers hello as `me` in replica set rs0 (hosts A and B, B primary), and every other command ok. */
function fakeMember(primary: boolean, hosts: () => [string, string], received: string[]): Server {
  return createServer((socket) => {
    let pending = Buffer.alloc(0);
    socket.on("error", () => {});
    socket.on("data", (data) => {
      pending = Buffer.concat([pending, data]);
      while (pending.length >= 16 && pending.length >= pending.readInt32LE(0)) {
        const length = pending.readInt32LE(0);
        const message = pending.subarray(0, length);
        pending = pending.subarray(length);
        const opCode = message.readInt32LE(12);
        if (opCode !== OP_MSG && opCode !== OP_QUERY) continue;
        // OP_QUERY (the driver's first greeting): after the header, flags, the collection's name and two counts.
        const at = opCode === OP_MSG ? 21 : message.indexOf(0, 20) + 1 + 8;
        const command = BSON.deserialize(message.subarray(at, at + message.readInt32LE(at)));
        const name = Object.keys(command)[0]!;
        received.push(name);
        const [a, b] = hosts();
        const reply = /^(hello|isMaster|ismaster)$/.test(name)
          ? {
              ok: 1,
              isWritablePrimary: primary,
              secondary: !primary,
              setName: "rs0",
              setVersion: 1,
              hosts: [a, b],
              primary: b,
              me: primary ? b : a,
              maxWireVersion: 21,
              minWireVersion: 0,
              maxBsonObjectSize: 16 * 1024 * 1024,
              maxMessageSizeBytes: 48_000_000,
              maxWriteBatchSize: 100_000,
              localTime: new Date(),
              logicalSessionTimeoutMinutes: 30,
              ...(primary ? { electionId: new BSON.ObjectId("7fffffff0000000000000001") } : {}),
            }
          : { ok: 1, cursor: { id: 0n, ns: "x.y", firstBatch: [] } };
        const body = BSON.serialize(reply);
        // OP_MSG: header, flags, a section of kind 0; OP_REPLY: header, flags, cursor, start, count.
        const bodyAt = opCode === OP_MSG ? 21 : 36;
        const answer = Buffer.alloc(bodyAt + body.length);
        answer.writeInt32LE(answer.length, 0);
        answer.writeInt32LE(message.readInt32LE(4), 8);
        answer.writeInt32LE(opCode === OP_MSG ? OP_MSG : OP_REPLY, 12);
        if (opCode === OP_QUERY) answer.writeInt32LE(1, 32);
        answer.set(body, bodyAt);
        socket.write(answer);
      }
    });
  });
}

async function replicaSet() {
  const onSecondary: string[] = [];
  const onPrimary: string[] = [];
  let hosts: [string, string] = ["", ""];
  const secondary = fakeMember(false, () => hosts, onSecondary).listen(0, "127.0.0.1");
  const primary = fakeMember(true, () => hosts, onPrimary).listen(0, "127.0.0.1");
  await Promise.all([once(secondary, "listening"), once(primary, "listening")]);
  const port = (server: Server) => (server.address() as AddressInfo).port;
  hosts = [`127.0.0.1:${port(secondary)}`, `0.0.0.0:${port(primary)}`];
  return {
    uri: `mongodb://${hosts[0]}/`,
    onPrimary,
    close: () => {
      secondary.close();
      primary.close();
    },
  };
}

async function openOn(uri: string, allowPlaintext: boolean) {
  const lines: string[] = [];
  const logger = pino(new Writable({ write: (chunk: Buffer, _encoding, done) => (lines.push(String(chunk)), done()) }));
  let up = false;
  const database = openDatabase({
    uri,
    name: "members",
    logger,
    setUp: async () => {},
    onStatusChange: (next) => (up = up || next),
    onWritableChange: () => {},
    pingIntervalMs: 200,
    allowPlaintext,
  });
  await sleep(3_000);
  await database.close();
  return { lines, up };
}

test("seeds on this machine that lead to a member on another one, without TLS: refused before any command", async (t) => {
  const set = await replicaSet();
  t.teardown(set.close);
  const { lines, up } = await openOn(set.uri, false);
  t.false(up, "the database never counts as reachable");
  t.deepEqual(
    set.onPrimary.filter((command) => !/^(hello|isMaster|ismaster)$/.test(command)),
    [],
    "the remote member got no command",
  );
  t.true(
    lines.some((line) => line.includes("a member on another machine") && line.includes("0.0.0.0:")),
    "the log says why",
  );
});

test("the same set with MONGODB_ALLOW_PLAINTEXT: the member is used", async (t) => {
  const set = await replicaSet();
  t.teardown(set.close);
  const { up } = await openOn(set.uri, true);
  t.true(up);
  t.true(set.onPrimary.includes("ping"), "commands go to the primary");
});
