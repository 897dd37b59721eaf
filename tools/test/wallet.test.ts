// `npm run wallet`: an operator's deposit, withdrawal and ledger page on a real stack, through the
// wallet's operator-only RPCs, and the usage it refuses before sending anything.
import test from "ava";
import { execFile } from "node:child_process";
import { createServer, type AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import { Api } from "../../test/helpers/api.js";
import { useTestStack } from "../../test/helpers/stack.js";
import { EXIT_FAILED, EXIT_REFUSED, EXIT_UNKNOWN, parseCommand, runWalletCli } from "../src/wallet-cli.js";
import { createLogger, startGrpcServer, WALLET_ACCESS } from "@pokerodds/common";
import { WalletServiceService } from "@pokerodds/common/generated/pokerodds/wallet/v1/wallet";
import { tlsAs } from "../../test/helpers/pki.js";

/** The command as `npm run wallet` runs it (built by `npm test`). */
const WALLET_COMMAND = fileURLToPath(new URL("../dist/wallet.js", import.meta.url));

async function wallet(env: Record<string, string>, ...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runWalletCli(env, argv, { out: (text) => out.push(text), err: (text) => err.push(text) });
  return {
    code,
    answer: out.length ? (JSON.parse(out.join("")) as Record<string, unknown>) : undefined,
    err: err.join("\n"),
  };
}

test("a deposit, its replay, a withdrawal the balance cannot cover, and the ledger, as the player then sees them", async (t) => {
  const stack = await useTestStack(t);
  const env = { WALLET_ADDR: stack.grpcAddresses.wallet, DATA_DIR: stack.dataDir };
  const player = await new Api(stack.url, stack.dataDir).player("olivia");
  const welcome = await player.balance(); // opens the account

  const deposit = await wallet(env, "deposit", "olivia", "25.50", "--key", "bank-transfer-7", "--note", "bank 7");
  t.is(deposit.code, 0, deposit.err);
  t.like(deposit.answer, { applied: true, balance: (welcome + 2550) / 100, replayed: false });
  const replay = await wallet(env, "deposit", "olivia", "25.50", "--key", "bank-transfer-7", "--note", "bank 7");
  t.like(
    replay.answer,
    { applied: true, balance: (welcome + 2550) / 100, replayed: true },
    "sent again: nothing moves",
  );
  const reused = await wallet(env, "deposit", "olivia", "30", "--key", "bank-transfer-7");
  t.is(reused.code, EXIT_FAILED, "the same key for another amount");
  t.regex(reused.err, /the wallet answered: /);

  const withdrawal = await wallet(env, "withdraw", "olivia", "1000000", "--key", "payout-1");
  t.is(withdrawal.code, EXIT_REFUSED);
  t.like(withdrawal.answer, { applied: false, refused: "REFUSAL_REASON_INSUFFICIENT_FUNDS" });
  t.is(await player.balance(), welcome + 2550, "the player sees the deposit once, and no withdrawal");

  const ledger = await wallet(env, "ledger", "olivia");
  t.is(ledger.code, 0, ledger.err);
  const entries = (ledger.answer as { entries: Record<string, unknown>[] }).entries;
  t.like(entries[2], { applied: false, refused: "REFUSAL_REASON_INSUFFICIENT_FUNDS", requested: 1000000, amount: 0 });
  t.like(entries[1], { applied: true, requested: 25.5, tableId: null });
  t.deepEqual(
    entries.map(({ kind, amount, reason, idempotencyKey }) => ({ kind, amount, reason, idempotencyKey })),
    [
      {
        kind: "MOVEMENT_KIND_WELCOME",
        amount: welcome / 100,
        reason: entries[0]!.reason,
        idempotencyKey: entries[0]!.idempotencyKey,
      },
      { kind: "MOVEMENT_KIND_DEPOSIT", amount: 25.5, reason: "bank 7", idempotencyKey: "bank-transfer-7" },
      { kind: "MOVEMENT_KIND_WITHDRAW", amount: 0, reason: "", idempotencyKey: "payout-1" },
    ],
  );
  t.is((ledger.answer as { nextAfter: number }).nextAfter, 0, "one page holds them all");

  const stranger = await wallet(env, "deposit", "nobody-yet", "5", "--key", "k");
  t.is(stranger.code, EXIT_FAILED, "an account never opened takes no deposit");

  // Nothing listens: no connection, so nothing was sent, and nothing moved (it said "may have been
  // applied" and asked for the same command again, which would fail the same way).
  const away = { ...env, WALLET_ADDR: "127.0.0.1:9" };
  const unsent = await wallet(away, "deposit", "olivia", "5", "--key", "bank-transfer-8");
  t.is(unsent.code, EXIT_FAILED, unsent.err);
  t.regex(unsent.err, /cannot connect to the wallet at 127\.0\.0\.1:9 \(.*\): nothing was sent/);
  const unread = await wallet(away, "ledger", "olivia");
  t.is(unread.code, EXIT_FAILED, "a ledger page that did not come moved nothing");

  // A wallet that takes the TCP connection and never answers (a stopped process, a frozen machine):
  // no TLS handshake, so nothing was sent either; the command still ends when its deadline has
  // passed, as a run of it in a script must.
  const silent = createServer(() => {});
  await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
  t.teardown(() => silent.close());
  const started = Date.now();
  const run = await new Promise<{ code: number | null; signal: string | null; stderr: string }>((resolve) => {
    const argv = [WALLET_COMMAND, "deposit", "olivia", "5", "--key", "bank-transfer-9"];
    const child = execFile(process.execPath, argv, {
      env: { ...process.env, ...env, WALLET_ADDR: `127.0.0.1:${(silent.address() as AddressInfo).port}` },
      // The call's deadline is 10 s; the process its connection held open never ended.
      timeout: 40_000,
    });
    let stderr = "";
    child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("close", (code, signal) => resolve({ code, signal, stderr }));
  });
  t.is(run.code, EXIT_FAILED, `${run.stderr} (after ${Date.now() - started} ms, ${String(run.signal)})`);
  t.regex(run.stderr, /no connection within 10 s\): nothing was sent/);
});

// Sent, and no answer came (a wallet that stopped with the deposit in hand): it may have been
// applied, so the exit is neither 0 nor 2, and the operator is told how to learn it.
test("a deposit sent whose answer never comes: the outcome is unknown (exit 3)", async (t) => {
  const logger = createLogger("wallet-cli-test");
  let received = 0;
  const server = await startGrpcServer(
    {
      name: "pokerodds.wallet.v1.WalletService",
      protoFile: "pokerodds/wallet/v1/wallet.proto",
      definition: WalletServiceService,
      implementation: {
        deposit: () => {
          received++; // and never answers
        },
      },
    },
    { port: 0, logger, tls: tlsAs("wallet"), access: WALLET_ACCESS },
  );
  t.teardown(() => server.shutdown(0));
  const operator = tlsAs("operator");
  const env = {
    WALLET_ADDR: `127.0.0.1:${server.port}`,
    TLS_CA_FILE: operator.caFile,
    TLS_CERT_FILE: operator.certFile,
    TLS_KEY_FILE: operator.keyFile,
  };
  const unknown = await wallet(env, "deposit", "olivia", "5", "--key", "bank-transfer-10");
  t.is(unknown.code, EXIT_UNKNOWN, unknown.err);
  t.is(received, 1);
  t.regex(
    unknown.err,
    /outcome is unknown: it may have been applied\. Send the same command again, with the same --key/,
  );
});

test("usage it refuses before sending anything", (t) => {
  const refused = (...argv: string[]) => t.throws(() => parseCommand(argv), undefined, argv.join(" "));
  for (const amount of ["0", "-1", "1.234", "1e3", "0x10", "", "abc", "1000000000.01"]) {
    refused("deposit", "p", amount, "--key", "k");
  }
  refused("deposit", "p", "5"); // no key
  refused("deposit", "p", "5", "--key", "");
  refused("refund", "p", "5", "--key", "k");
  refused("deposit", "p", "5", "--key", "k", "extra");
  refused("deposit", "p", "5", "--key", "k", "--key", "k2"); // which key was meant?
  refused("deposit", "p", "5", "--key", "k", "--note", "a", "--note", "b");
  t.throws(() => parseCommand(["deposit", "p", "5", "--key", "k", "--note", "n".repeat(65)]), {
    message: /^--note must be at most 64 characters/,
  });
  t.is(parseCommand(["deposit", "p", "5", "--key", "k", "--note", "n".repeat(64)]).kind, "deposit");
  refused("withdraw", "p", "5", "--key", "k", "--limit", "3");
  refused("ledger", "p", "--key", "k");
  refused("ledger", "p", "--limit", "0");
  refused("ledger", "p", "--after", "-1");
  refused("ledger");
  t.deepEqual(parseCommand(["withdraw", "p", "12.5", "--key", "k"]), {
    kind: "withdraw",
    playerId: "p",
    amountCents: 1250,
    key: "k",
    note: "",
  });
  t.deepEqual(parseCommand(["ledger", "p", "--after", "7", "--limit", "1000"]), {
    kind: "ledger",
    playerId: "p",
    after: 7,
    limit: 1000,
  });
});
