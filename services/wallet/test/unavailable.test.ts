import { status } from "@grpc/grpc-js";
import { stopChildren } from "@pokerodds/launcher/child";
import { startFerretDB } from "@pokerodds/launcher/ferretdb";
import { freePorts } from "@pokerodds/launcher/ports";
import test from "ava";
import { mkdtemp, open, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { statusOf, waitForHealth } from "../../../test/helpers/grpc-services.js";
import { claims, spawnWallet, startWallet, walletClient } from "./helpers/wallet-cluster.js";

test("without its database the wallet is NOT_SERVING and answers UNAVAILABLE, quickly", async (t) => {
  // Nothing listens on the database port.
  const [databasePort, port] = (await freePorts(2)) as [number, number];
  const server = spawnWallet(`mongodb://127.0.0.1:${databasePort}/?retryWrites=false`, port);
  const client = walletClient(port);
  try {
    await waitForHealth("wallet", port, "NOT_SERVING", server);
    // Each call timed on its own: one that waited for the driver's server selection takes 2 s at least.
    for (const call of [
      () => client.call.getProfile({ claims: claims("p") }),
      () => client.call.getBalance({ playerId: "p" }),
    ]) {
      const started = Date.now();
      t.is(await statusOf(call()), status.UNAVAILABLE);
      t.true(Date.now() - started < 2_000, `answered after ${Date.now() - started} ms`);
    }
  } finally {
    client.raw.close();
    await stopChildren([[server]], 5000);
  }
});

test("when the database goes away after start-up, calls answer UNAVAILABLE, not INTERNAL", async (t) => {
  const dataDir = await mkdtemp(join(tmpdir(), "pokerodds-wallet-"));
  const database = await startFerretDB({ dataDir });
  const { port, child: server } = await startWallet(database.uri);
  const client = walletClient(port);
  try {
    await client.call.getProfile({ claims: claims("p") });
    await database.stop();
    t.is(await statusOf(client.call.getBalance({ playerId: "p" })), status.UNAVAILABLE);
    await waitForHealth("wallet", port, "NOT_SERVING", server);
  } finally {
    client.raw.close();
    await stopChildren([[server], [database.child]], 5000);
    await rm(dataDir, { recursive: true, force: true });
  }
});

test("a database on another machine without TLS stops the wallet at start: a fatal line naming the way out, exit 1", async (t) => {
  const [port] = (await freePorts(1)) as [number];
  const dir = await mkdtemp(join(tmpdir(), "pokerodds-wallet-"));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const output = await open(join(dir, "wallet.log"), "w");
  const server = spawnWallet("mongodb://db.example:27017/", port, output.fd);
  const exit = await server.exited;
  await output.close();
  t.is(exit.code, 1);
  t.regex(await readFile(join(dir, "wallet.log"), "utf8"), /without TLS.*MONGODB_ALLOW_PLAINTEXT=1/);
});
