// `npm run wallet`: the operator's deposits, withdrawals and ledger reads, sent straight to the wallet
// service with the "operator" certificate, the only one it takes them from (no public route offers
// them, so the Internet-facing gateway cannot mint money).
//
//   npm run wallet -- deposit <playerId> <amount> --key <idempotency key> [--note <text>]
//   npm run wallet -- withdraw <playerId> <amount> --key <idempotency key> [--note <text>]
//   npm run wallet -- ledger <playerId> [--after <sequence>] [--limit <1 to 1000>]
//
// The key is required: the same key sent again (after a lost answer) moves nothing twice and prints
// the first outcome. The wallet's address: WALLET_ADDR, else the one `npm start` wrote to
// DATA_DIR/pids.json. The certificate: TLS_CA_FILE, TLS_CERT_FILE and TLS_KEY_FILE, else the
// operator's files under DATA_DIR/pki. Prints one JSON object: the movement's outcome, or a ledger
// page in sequence order (amounts in units, as the public API shows them).
// Exit 0 when the movement was applied or the page read, 1 when the wallet refused the movement
// (nothing moved), 2 on bad usage or a failure that moved nothing (a wallet it cannot connect to
// among them), 3 when a movement's answer did not come once sent (it may have been applied: send
// the same command again to learn it).
import { dataDirFrom, pidFilePath, pkiDir, pkiFiles } from "@pokerodds/common/stack-layout";
import { MONEY_RULE, toCents, toUnits, toSignedUnits } from "@pokerodds/api/money";
import { connectivityState, status, type Client } from "@grpc/grpc-js";
import { createClient, isServiceError, tlsFilesFromEnv, type TlsFiles } from "@pokerodds/common";
import { LEDGER_PAGE_DEFAULT, LEDGER_PAGE_MAX, OPERATOR_NOTE_MAX_LENGTH } from "@pokerodds/common/limits";
import {
  MovementKind,
  RefusalReason,
  WalletServiceClient,
  type LedgerEntry,
  type MovementResult,
} from "@pokerodds/common/generated/pokerodds/wallet/v1/wallet";
import { readFile } from "node:fs/promises";
import { parseArgsOnce } from "@pokerodds/common/args";

export const EXIT_REFUSED = 1;
export const EXIT_FAILED = 2;
/** A deposit or withdrawal sent whose outcome did not come back: it may have been applied. */
export const EXIT_UNKNOWN = 3;

/** Statuses that answer a movement without applying it; any other failure may come after it was. */
const NOT_APPLIED = new Set<number>([
  status.INVALID_ARGUMENT,
  status.NOT_FOUND,
  status.ALREADY_EXISTS,
  status.PERMISSION_DENIED,
  status.UNAUTHENTICATED,
  status.FAILED_PRECONDITION,
  status.OUT_OF_RANGE,
  status.UNIMPLEMENTED,
]);

const OUTCOME_UNKNOWN =
  "the outcome is unknown: it may have been applied. Send the same command again, with the same --key and --note, to learn it (it is never applied twice)";

const USAGE = [
  "usage: npm run wallet -- deposit <playerId> <amount> --key <idempotency key> [--note <text>]",
  "       npm run wallet -- withdraw <playerId> <amount> --key <idempotency key> [--note <text>]",
  "       npm run wallet -- ledger <playerId> [--after <sequence>] [--limit <1 to 1000>]",
].join("\n");

type Env = Record<string, string | undefined>;
interface Io {
  out(text: string): void;
  err(text: string): void;
}

class UsageError extends Error {}

const METHODS = ["deposit", "withdraw", "listLedger"] as const;

type Command =
  | { kind: "deposit" | "withdraw"; playerId: string; amountCents: number; key: string; note: string }
  | { kind: "ledger"; playerId: string; after: number; limit: number };

/** A whole number from `min` to `max` written in plain digits, or a UsageError naming the option. */
function wholeNumber(name: string, text: string | undefined, fallback: number, min: number, max: number): number {
  if (text === undefined) return fallback;
  const value = /^[0-9]{1,16}$/.test(text) ? Number(text) : NaN;
  if (!(value >= min && value <= max)) throw new UsageError(`--${name} must be a whole number from ${min} to ${max}`);
  return value;
}

export function parseCommand(argv: readonly string[]): Command {
  let parsed;
  try {
    parsed = parseArgsOnce({
      args: [...argv],
      allowPositionals: true,
      options: {
        key: { type: "string" },
        note: { type: "string", default: "" },
        after: { type: "string" },
        limit: { type: "string" },
      },
    });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const { positionals, values } = parsed;
  const [kind, playerId, amount, ...rest] = positionals;
  if (!playerId || rest.length > 0) throw new UsageError("wrong arguments");
  if (kind === "ledger") {
    if (amount !== undefined || values.key !== undefined || values.note) {
      throw new UsageError("ledger takes a player id, --after and --limit only");
    }
    const after = wholeNumber("after", values.after, 0, 0, Number.MAX_SAFE_INTEGER);
    return {
      kind,
      playerId,
      after,
      limit: wholeNumber("limit", values.limit, LEDGER_PAGE_DEFAULT, 1, LEDGER_PAGE_MAX),
    };
  }
  if (kind !== "deposit" && kind !== "withdraw") throw new UsageError(`unknown command ${JSON.stringify(kind)}`);
  if (values.after !== undefined || values.limit !== undefined)
    throw new UsageError(`${kind} takes no --after or --limit`);
  const amountCents = amount === undefined ? undefined : toCents(Number(amount));
  if (amountCents === undefined || !/^[0-9]+(\.[0-9]{1,2})?$/.test(amount!)) {
    throw new UsageError(`the amount must be ${MONEY_RULE}, in units (12.50)`);
  }
  if (!values.key) throw new UsageError("--key is required: the same key sent again moves nothing twice");
  if (values.note.length > OPERATOR_NOTE_MAX_LENGTH) {
    throw new UsageError(
      `--note must be at most ${OPERATOR_NOTE_MAX_LENGTH} characters (the player's statement shows it)`,
    );
  }
  return { kind, playerId, amountCents, key: values.key, note: values.note };
}

/** WALLET_ADDR, else the wallet's address in the pid file `npm start` keeps under DATA_DIR. */
async function walletAddress(env: Env): Promise<string> {
  if (env.WALLET_ADDR) return env.WALLET_ADDR;
  const pidFile = pidFilePath(dataDirFrom(env));
  const content = await readFile(pidFile, "utf8").catch(() => undefined);
  const address = (content &&
    (JSON.parse(content) as { addresses?: { wallet?: unknown } }).addresses?.wallet) as unknown;
  if (typeof address !== "string") {
    throw new UsageError(`no WALLET_ADDR, and no wallet address in ${pidFile} (is \`npm start\` running?)`);
  }
  return address;
}

/** TLS_* when set, else the operator's certificate of the development PKI under DATA_DIR. */
function operatorTls(env: Env): TlsFiles {
  return tlsFilesFromEnv(env) ?? pkiFiles(pkiDir(dataDirFrom(env)), "operator");
}

function outcomeOf(result: MovementResult | undefined) {
  if (!result) throw new Error("the wallet answered without a result");
  return {
    applied: result.applied,
    ...(result.applied ? {} : { refused: RefusalReason[result.refusalReason] }),
    balance: toUnits(result.accountBalanceCents),
    entryId: result.entryId,
    sequence: result.sequence,
    replayed: result.replayed,
  };
}

/** An entry as the operator reads it: a refused movement says so, with what was asked and why. */
function entryOf(entry: LedgerEntry) {
  return {
    sequence: entry.sequence,
    kind: MovementKind[entry.kind],
    applied: entry.applied,
    ...(entry.applied ? {} : { refused: RefusalReason[entry.refusalReason] }),
    requested: toUnits(entry.requestedCents),
    amount: toSignedUnits(entry.amountCents),
    balanceAfter: toUnits(entry.balanceAfterCents),
    tableId: entry.tableId ?? null,
    reason: entry.reason,
    reference: entry.reference,
    idempotencyKey: entry.idempotencyKey,
    createdAt: entry.createdAt,
  };
}

/** How long the wallet may take to accept the connection, and then to answer. */
const DEADLINE_MS = 10_000;

/**
 * Waits until the channel has a connection to the wallet, so that a failure to connect (nothing
 * listens, the TLS handshake refused, no answer to it) is known to have sent nothing: it ended in
 * "the outcome is unknown", and the operator was told to send again a deposit that could not have
 * been made and would fail the same way.
 */
async function connected(client: Client, address: string): Promise<void> {
  const channel = client.getChannel();
  const deadline = Date.now() + DEADLINE_MS;
  for (;;) {
    const state = channel.getConnectivityState(true);
    if (state === connectivityState.READY) return;
    if (state === connectivityState.TRANSIENT_FAILURE || Date.now() >= deadline) {
      const why =
        state === connectivityState.TRANSIENT_FAILURE
          ? "refused, unreachable or its TLS handshake failed"
          : `no connection within ${DEADLINE_MS / 1000} s`;
      throw new Error(`cannot connect to the wallet at ${address} (${why}): nothing was sent`);
    }
    await new Promise<void>((resolve) => channel.watchConnectivityState(state, deadline, () => resolve()));
  }
}

async function send(command: Command, env: Env, io: Io): Promise<number> {
  const address = await walletAddress(env);
  // Safe to repeat after UNAVAILABLE: the movements carry their key, and a ledger page only reads.
  const wallet = createClient(WalletServiceClient, METHODS, address, {
    defaultDeadlineMs: DEADLINE_MS,
    retryUnavailable: METHODS,
    tls: operatorTls(env),
  });
  try {
    await connected(wallet.raw, address);
    if (command.kind === "ledger") {
      const page = await wallet.call.listLedger({
        playerId: command.playerId,
        afterSequence: command.after,
        limit: command.limit,
      });
      // nextAfter: the --after of the next page; 0 when this one is the last.
      io.out(JSON.stringify({ entries: page.entries.map(entryOf), nextAfter: page.nextAfterSequence }));
      return 0;
    }
    const movement = {
      playerId: command.playerId,
      amountCents: command.amountCents,
      idempotencyKey: command.key,
      reason: command.note,
      reference: "",
    };
    const { result } =
      command.kind === "deposit" ? await wallet.call.deposit({ movement }) : await wallet.call.withdraw({ movement });
    const outcome = outcomeOf(result);
    io.out(JSON.stringify(outcome));
    return outcome.applied ? 0 : EXIT_REFUSED;
  } finally {
    wallet.raw.close();
  }
}

export async function runWalletCli(env: Env, argv: readonly string[], io: Io): Promise<number> {
  let command: Command;
  try {
    command = parseCommand(argv);
  } catch (error) {
    io.err(`${(error as Error).message}\n${USAGE}`);
    return EXIT_FAILED;
  }
  try {
    return await send(command, env, io);
  } catch (error) {
    if (!isServiceError(error)) {
      io.err(`wallet: ${(error as Error).message}`);
      return EXIT_FAILED;
    }
    io.err(`the wallet answered: ${error.details || error.message}`);
    if (command.kind === "ledger" || NOT_APPLIED.has(error.code)) return EXIT_FAILED;
    io.err(OUTCOME_UNKNOWN);
    return EXIT_UNKNOWN;
  }
}
