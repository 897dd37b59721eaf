// Zero trust inside: every gRPC hop is mutual TLS with the one private CA, and each RPC is allowed
// only to the services that need it. "One WalletService/Deposit call from outside the gateway
// credited 1,000,000 to a player" must not be possible any more.
import { credentials, Metadata, status } from "@grpc/grpc-js";
import { createClient, HealthChecker, type TlsFiles } from "@pokerodds/common";
import { WalletServiceClient, WalletServiceService } from "@pokerodds/common/generated/pokerodds/wallet/v1/wallet";
import { stopChildren } from "@pokerodds/launcher/child";
import { startFerretDB, type FerretDB } from "@pokerodds/launcher/ferretdb";
import { ensurePki } from "@pokerodds/launcher/pki";
import test from "ava";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { connect } from "node:http2";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { claims, startWallet } from "../../services/wallet/test/helpers/wallet-cluster.js";
import { statusOf } from "../helpers/grpc-services.js";
import { tlsAs } from "../helpers/pki.js";

let dataDir: string;
let database: FerretDB;
let address: string;
let stopWallet: () => Promise<void>;
/** Certificates from another CA: right names, wrong issuer. */
let foreign: TlsFiles;

test.before(async () => {
  dataDir = await mkdtemp(join(tmpdir(), "pokerodds-mtls-"));
  database = await startFerretDB({ dataDir: join(dataDir, "db"), output: "inherit" });
  const wallet = await startWallet(database.uri);
  address = `127.0.0.1:${wallet.port}`;
  stopWallet = () => stopChildren([[wallet.child]], 5000);
  foreign = (await ensurePki(join(dataDir, "other-ca"))).files.gateway;
});

test.after.always(async () => {
  await stopWallet?.();
  await database?.stop();
  await rm(dataDir, { recursive: true, force: true });
});

const deposit = (playerId: string, key: string) => ({
  movement: { playerId, amountCents: 100_000_000, idempotencyKey: key, reason: "deposit", reference: "" },
});

function walletAs(tls: TlsFiles | undefined) {
  return createClient(WalletServiceClient, Object.keys(WalletServiceService), address, {
    defaultDeadlineMs: 3_000,
    tls,
  });
}

async function balanceOf(playerId: string): Promise<number> {
  const table = walletAs(tlsAs("table"));
  try {
    return (await table.call.getBalance({ playerId })).accountBalanceCents;
  } finally {
    table.raw.close();
  }
}

async function refusal(tls: TlsFiles | undefined, call: (wallet: ReturnType<typeof walletAs>) => Promise<unknown>) {
  const wallet = walletAs(tls);
  try {
    return await statusOf(call(wallet));
  } finally {
    wallet.raw.close();
  }
}

test("the Deposit call from anyone but an operator fails, and credits nothing", async (t) => {
  const gateway = walletAs(tlsAs("gateway"));
  await gateway.call.getProfile({ claims: claims("victim") });
  gateway.raw.close();
  const before = await balanceOf("victim");

  // No certificate at all: plaintext is not even spoken (the TLS handshake is required).
  const plaintext = new WalletServiceClient(address, credentials.createInsecure());
  const noTls = await new Promise<number | undefined>((resolve) =>
    plaintext.deposit(deposit("victim", "a"), new Metadata(), { deadline: Date.now() + 3000 }, (error) =>
      resolve(error?.code),
    ),
  );
  plaintext.close();
  t.not(noTls, status.OK);
  t.not(noTls, undefined);

  // TLS that trusts our CA but presents no client certificate.
  const anonymous = new WalletServiceClient(address, credentials.createSsl(null), {
    "grpc.ssl_target_name_override": "wallet",
  });
  const noCert = await new Promise<number | undefined>((resolve) =>
    anonymous.deposit(deposit("victim", "b"), new Metadata(), { deadline: Date.now() + 3000 }, (error) =>
      resolve(error?.code),
    ),
  );
  anonymous.close();
  t.true(noCert === status.UNAVAILABLE || noCert === status.UNAUTHENTICATED, `got ${noCert}`);

  // A certificate that says "gateway", from another CA.
  t.is(await refusal(foreign, (w) => w.call.deposit(deposit("victim", "c"))), status.UNAVAILABLE);
  // A valid certificate of any service: no public route moves money this way, so not even the
  // Internet-facing gateway may deposit or withdraw. It may list a ledger (a player's statement);
  // the table and odds services may not.
  t.is(await refusal(tlsAs("table"), (w) => w.call.deposit(deposit("victim", "d"))), status.PERMISSION_DENIED);
  t.is(await refusal(tlsAs("odds"), (w) => w.call.withdraw(deposit("victim", "e"))), status.PERMISSION_DENIED);
  t.is(await refusal(tlsAs("gateway"), (w) => w.call.deposit(deposit("victim", "f"))), status.PERMISSION_DENIED);
  t.is(await refusal(tlsAs("gateway"), (w) => w.call.withdraw(deposit("victim", "g"))), status.PERMISSION_DENIED);
  const ledger = { playerId: "victim", afterSequence: 0, limit: 10 };
  t.is(await refusal(tlsAs("table"), (w) => w.call.listLedger(ledger)), status.PERMISSION_DENIED);
  t.is(await refusal(tlsAs("odds"), (w) => w.call.listLedger(ledger)), status.PERMISSION_DENIED);

  t.is(await balanceOf("victim"), before);
});

test("each RPC answers only the services its table names", async (t) => {
  // The gateway may not move money at a table's request, nor read balances.
  t.is(await refusal(tlsAs("gateway"), (w) => w.call.debit(deposit("p", "d1"))), status.PERMISSION_DENIED);
  t.is(await refusal(tlsAs("gateway"), (w) => w.call.credit(deposit("p", "c1"))), status.PERMISSION_DENIED);
  t.is(await refusal(tlsAs("gateway"), (w) => w.call.getBalance({ playerId: "p" })), status.PERMISSION_DENIED);
  // The table may not assert an end user's claims, nor run the audit.
  t.is(await refusal(tlsAs("table"), (w) => w.call.getProfile({ claims: claims("p") })), status.PERMISSION_DENIED);
  t.is(await refusal(tlsAs("table"), (w) => w.call.audit({})), status.PERMISSION_DENIED);
  // Odds is no caller of the wallet at all.
  t.is(await refusal(tlsAs("odds"), (w) => w.call.getPlayer({ playerId: "p" })), status.PERMISSION_DENIED);
  // The allowed callers get through.
  t.is(await refusal(tlsAs("operator"), (w) => w.call.deposit(deposit("p2", "ok"))), status.NOT_FOUND);
  t.is(await refusal(tlsAs("table"), (w) => w.call.getPlayer({ playerId: "nobody" })), status.NOT_FOUND);
  const ledger = { playerId: "nobody", afterSequence: 0, limit: 10 };
  t.is(await refusal(tlsAs("gateway"), (w) => w.call.listLedger(ledger)), status.NOT_FOUND);
});

test("a player's username (an e-mail at some providers) goes to the gateway only; the table gets the names a seat shows", async (t) => {
  const as = async (service: "gateway" | "table") => {
    const wallet = walletAs(tlsAs(service));
    try {
      return (await wallet.call.getPlayer({ playerId: "named" })).profile!;
    } finally {
      wallet.raw.close();
    }
  };
  const gateway = walletAs(tlsAs("gateway"));
  await gateway.call.getProfile({ claims: claims("named") }).finally(() => gateway.raw.close());
  t.like(await as("gateway"), { username: "named@example.com", displayName: "Player named" });
  t.like(await as("table"), { username: "", displayName: "Player named" });
});

test("health is open to any certificate of the CA, closed to others", async (t) => {
  const ours = new HealthChecker(address, tlsAs("odds"), "wallet");
  const theirs = new HealthChecker(address, foreign);
  try {
    t.is(await ours.check("", 3000), "SERVING");
    t.is(await theirs.check("", 3000), "UNREACHABLE");
  } finally {
    ours.close();
    theirs.close();
  }
});

test("a client refuses a server whose certificate names another service", async (t) => {
  // The wallet's address, but the client expects the odds service there.
  const checker = new HealthChecker(address, tlsAs("gateway"), "odds");
  try {
    t.is(await checker.check("", 3000), "UNREACHABLE");
  } finally {
    checker.close();
  }
});

test("a caller the policy refuses is answered from its call's headers: its request is never read", async (t) => {
  // As the odds service, which may not debit: a call whose 1 MiB request never finishes arriving.
  const odds = tlsAs("odds");
  const session = connect(`https://${address}`, {
    ca: await readFile(odds.caFile),
    cert: await readFile(odds.certFile),
    key: await readFile(odds.keyFile),
    // The certificate names a service (spiffe://pokerodds/wallet), not a host.
    checkServerIdentity: () => undefined,
  });
  t.teardown(() => session.destroy());
  const call = session.request({
    ":method": "POST",
    ":path": "/pokerodds.wallet.v1.WalletService/Debit",
    "content-type": "application/grpc",
    te: "trailers",
  });
  const prefix = Buffer.alloc(5);
  prefix.writeUInt32BE(1024 * 1024, 1);
  call.write(Buffer.concat([prefix, Buffer.alloc(16)]));
  const answer = await new Promise<string | undefined>((resolve) => {
    const timer = setTimeout(() => resolve("no answer within 3 s"), 3_000);
    call.on("response", (headers) => {
      clearTimeout(timer);
      resolve(String(headers["grpc-status"]));
    });
    call.on("error", (error) => resolve(String(error)));
  });
  t.is(answer, String(status.PERMISSION_DENIED));
});
