// Where the money is, seen only through the public API, and what it must add up to: every cent a
// player was welcomed with is in an account, on a seat, in an open stake, or was won by the house in
// a settled game (stakes minus payouts, each payout computed here from an independent evaluation).
import type { ExecutionContext } from "ava";
import { cents, errorOf, show, WELCOME_CENTS, type Api, type Player, type Reply, type TableState } from "./api.js";
import { eventually } from "./poll.js";
import { payoutCents, winningHands } from "./poker.js";

interface Settlement {
  /** The winning hands by the reference evaluator. */
  winners: number[];
  stakesCents: number;
  payoutsCents: number;
  /** What each bettor gets back in this game, in cents (0 for a bettor who won nothing). */
  payoutsByPlayer: Map<string, number>;
}

/** The river's board, in order. */
export const boardOf = (state: TableState): string[] =>
  [state.flopCard1, state.flopCard2, state.flopCard3, state.turnCard, state.riverCard].filter(
    (card): card is string => card !== null,
  );

/** Settles a river state's bets independently of the services. */
export function settle(river: TableState): Settlement {
  if (river.gameState !== "STATUS_RIVER" || river.hands === null) throw new Error(`not a river: ${river.gameState}`);
  const winners = winningHands(river.hands, boardOf(river));
  const payoutsByPlayer = new Map<string, number>();
  let stakesCents = 0;
  let payoutsTotal = 0;
  for (const bet of river.bets) {
    const stake = cents(bet.betAmount);
    const paid = payoutCents(stake, bet.recordedOdds, bet.handIndex, winners);
    stakesCents += stake;
    payoutsTotal += paid;
    payoutsByPlayer.set(bet.playerId, (payoutsByPlayer.get(bet.playerId) ?? 0) + paid);
  }
  return { winners, stakesCents, payoutsCents: payoutsTotal, payoutsByPlayer };
}

/** The house's result over every river the api has seen: stakes kept minus winnings paid. */
function houseResultCents(api: Api): number {
  let total = 0;
  for (const river of api.rivers.values()) {
    const { stakesCents, payoutsCents } = settle(river);
    total += stakesCents - payoutsCents;
  }
  return total;
}

interface Books {
  accountsCents: number;
  seatsCents: number;
  openStakesCents: number;
  houseResultCents: number;
  /** Welcome credits of the players counted. */
  welcomedCents: number;
  /** accounts + seats + open stakes + house result - welcomed: 0 when every cent is accounted for. */
  discrepancyCents: number;
}

/**
 * The books of `players` over `tables`, read through the API: `players` must be every player that
 * ever held money at those tables, `reader` one that may read them all (an ADMIN for personal tables).
 * Bets of a game still in a betting stage are open stakes; a river's are settled (see houseResultCents).
 */
async function readBooks(
  api: Api,
  players: readonly Player[],
  tables: readonly number[],
  reader: Player,
): Promise<Books> {
  const balances = await Promise.all(players.map((player) => player.balance()));
  const states = await Promise.all(tables.map((tableId) => reader.readState(tableId)));
  const accountsCents = balances.reduce((a, b) => a + b, 0);
  const seatsCents = states.flatMap((s) => s.seats).reduce((sum, seat) => sum + cents(seat.seatBalance), 0);
  const openStakesCents = states
    .filter((s) => s.bettingStage >= 0)
    .flatMap((s) => s.bets)
    .reduce((sum, bet) => sum + cents(bet.betAmount), 0);
  const house = houseResultCents(api);
  const welcomedCents = WELCOME_CENTS * players.length;
  return {
    accountsCents,
    seatsCents,
    openStakesCents,
    houseResultCents: house,
    welcomedCents,
    discrepancyCents: accountsCents + seatsCents + openStakesCents + house - welcomedCents,
  };
}

/** The parts of GET /api/admin/audit's report the tests rely on. */
interface AuditReport {
  /** clean: conserved to the cent and settled; pending: transfers or credits in flight; mismatch: broken. */
  status: "clean" | "pending" | "mismatch";
  clean: boolean;
  settled: boolean;
  identity: {
    accountBalancesCents: number;
    seatsCents: number;
    openStakesCents: number;
    owedToAccountsCents: number;
    houseResultCents: number;
    welcomeCreditsCents: number;
  };
}

/**
 * GET /api/admin/audit as `admin`, polled while it says "pending" (transfers open, credits
 * undelivered), for at most `timeoutMs`. Undefined when the stack has no such route yet.
 */
export async function settledAudit(admin: Player, timeoutMs = 30_000): Promise<Reply<AuditReport> | undefined> {
  const read = () => admin.request<AuditReport>("GET", "/api/admin/audit");
  const first = await read();
  if (first.status === 404 && /no such endpoint/.test(errorOf(first) ?? "")) return undefined;
  let last = first;
  await eventually(
    "the audit settles",
    async () => {
      if (last.status === 200 && last.body.status !== "pending") return true;
      last = await read();
      return last.status === 200 && last.body.status !== "pending" ? true : undefined;
    },
    { timeoutMs, intervalMs: 500 },
  ).catch(() => {}); // the caller asserts on the last reading, which shows what was still pending
  return last;
}

/**
 * Asserts that every cent is accounted for: the books as the players see them (readBooks, polled
 * until owed credits arrive) and, when the stack has it, the ADMIN audit (polled until settled),
 * which must be clean. With `everyone` (the players are every player the stack ever welcomed and
 * the tables every table that held money), the audit's figures must also be the books' own: the same
 * accounts, seats, open stakes, welcome credits and house result, computed here independently.
 */
export async function expectMoneyConserved(
  t: ExecutionContext,
  api: Api,
  players: readonly Player[],
  tables: readonly number[],
  admin: Player,
  { timeoutMs = 30_000, everyone = false }: { timeoutMs?: number; everyone?: boolean } = {},
): Promise<void> {
  let books = await readBooks(api, players, tables, admin);
  await eventually(
    "the books balance",
    async () => {
      if (books.discrepancyCents === 0) return true;
      books = await readBooks(api, players, tables, admin);
      return books.discrepancyCents === 0 ? true : undefined;
    },
    { timeoutMs, intervalMs: 500 },
  ).catch(() => {});
  t.log(
    `books of ${players.length} players over ${tables.length} tables, ${api.rivers.size} games settled: ${JSON.stringify(books)}`,
  );
  t.is(
    books.discrepancyCents,
    0,
    `accounts + seats + open stakes + house result - welcome credits: ${JSON.stringify(books)}`,
  );

  const audit = await settledAudit(admin, timeoutMs);
  if (audit === undefined) {
    t.log("GET /api/admin/audit does not exist on this stack: conservation checked through the books only");
    return;
  }
  t.is(audit.status, 200, show(audit));
  t.log(`audit: ${audit.body.status}, identity ${JSON.stringify(audit.body.identity)}`);
  t.is(audit.body.status, "clean", show(audit));
  t.true(audit.body.clean, show(audit));
  t.true(audit.body.settled, show(audit));
  if (everyone && audit.status === 200) {
    const { identity } = audit.body;
    t.deepEqual(
      {
        accountsCents: identity.accountBalancesCents,
        seatsCents: identity.seatsCents,
        openStakesCents: identity.openStakesCents,
        owedCents: identity.owedToAccountsCents,
        houseResultCents: identity.houseResultCents,
        welcomedCents: identity.welcomeCreditsCents,
      },
      {
        accountsCents: books.accountsCents,
        seatsCents: books.seatsCents,
        openStakesCents: books.openStakesCents,
        owedCents: 0,
        houseResultCents: books.houseResultCents,
        welcomedCents: books.welcomedCents,
      },
      "the audit's figures are the books' (left) as computed here (right)",
    );
  }
}
