// Reading both audits as of one moment (collect.ts): which table changes make a reading inconsistent,
// and which reading the audit reports when it takes several.
import {
  GameState,
  TransferKind,
  type AuditResponse as TableAuditResponse,
  type OpenTransfer,
} from "@pokerodds/common/generated/pokerodds/table/v1/table";
import {
  MovementKind,
  type AuditResponse as WalletAuditResponse,
} from "@pokerodds/common/generated/pokerodds/wallet/v1/wallet";
import test from "ava";
import { readAudit, tableFingerprint } from "../src/collect.js";
import { reconcile } from "../src/reconcile.js";

const WELCOME = 100_000;

/** One player, debited `sitDebit` for sits (and refunded `sitRefund` of it). */
function walletAudit(sitDebit: number, sitRefund = 0): WalletAuditResponse {
  return {
    accounts: 1,
    entries: 3,
    refusedEntries: 0,
    totals: {
      balancesCents: WELCOME - sitDebit + sitRefund,
      welcomeCreditsCents: WELCOME,
      depositsCents: 0,
      withdrawalsCents: 0,
      debitsCents: sitDebit,
      creditsCents: sitRefund,
    },
    reasonTotals: [
      { kind: MovementKind.MOVEMENT_KIND_WELCOME, reason: "welcome", count: 1, amountCents: WELCOME },
      { kind: MovementKind.MOVEMENT_KIND_DEBIT, reason: "sit", count: 1, amountCents: sitDebit },
      ...(sitRefund
        ? [{ kind: MovementKind.MOVEMENT_KIND_CREDIT, reason: "sit-refund", count: 1, amountCents: sitRefund }]
        : []),
    ],
    conserved: true,
    issues: [],
    issueCount: 0,
    clean: true,
  };
}

interface TableState {
  credited: number;
  /** Of the credited, how much is staked on open bets, and what the house won: a bet moves these. */
  stakes?: number;
  house?: number;
  version?: number;
  games?: number;
  delivered?: number;
  creditKeys?: string[];
  transfers?: string[];
}

/** One table holding `credited` on its seats, less what is staked and won, plus what it delivered. */
function tableAudit(state: TableState): TableAuditResponse {
  const { credited, stakes = 0, house = 0, delivered = 0, creditKeys = [] } = state;
  const money = {
    seatsCents: credited - stakes - house - creditKeys.length,
    openStakesCents: stakes,
    outboxCents: creditKeys.length,
    deliveredCents: delivered,
    houseResultCents: house,
    creditedCents: credited + delivered,
  };
  const openTransfers = (state.transfers ?? []).map((transferId): OpenTransfer => ({
    transferId,
    kind: TransferKind.TRANSFER_KIND_LEAVE,
    playerId: "p1",
    tableId: 1,
    amountCents: 0,
    createdAt: "2026-12-01T00:00:00.000Z",
  }));
  return {
    tables: [
      {
        tableId: 1,
        version: state.version ?? 5,
        gameId: "T1-1",
        gameState: GameState.GAME_STATE_STATUS_HOLE,
        money,
        pendingCredits: creditKeys.map((key) => ({
          key,
          playerId: "p1",
          amountCents: 1,
          reason: "payout",
          reference: "T1-1",
        })),
        conserved: true,
        negativeSeats: 0,
      },
    ],
    totals: money,
    openTransfers,
    games: state.games ?? 0,
    conserved: true,
  };
}

/** Sources answering call by call. */
function sources(wallets: WalletAuditResponse[], tables: TableAuditResponse[]) {
  let walletCall = 0;
  let tableCall = 0;
  return {
    wallet: async () => wallets[Math.min(walletCall++, wallets.length - 1)]!,
    table: async () => tables[Math.min(tableCall++, tables.length - 1)]!,
  };
}

test("the fingerprint changes with what moves money between wallet and tables, not with bets", (t) => {
  const base: TableState = { credited: 50_000, delivered: 2_000, creditKeys: ["k1"], transfers: ["t1"] };
  const print = tableFingerprint(tableAudit(base));
  // A bet, an advance, a settlement paying seats, a refused bet: versions, stakes, house result, games.
  t.is(tableFingerprint(tableAudit({ ...base, version: 9, stakes: 3_000, house: -700, games: 4 })), print);
  for (const moved of [
    { credited: 60_000 },
    { delivered: 3_000 },
    { creditKeys: ["k1", "k2"] },
    { creditKeys: [] },
    { transfers: ["t1", "t2"] },
    { transfers: ["t2"] },
  ]) {
    t.not(tableFingerprint(tableAudit({ ...base, ...moved })), print, JSON.stringify(moved));
  }
  const twoTables = tableAudit(base);
  twoTables.tables.push({ ...twoTables.tables[0]!, tableId: 2, money: { ...twoTables.tables[0]!.money! } });
  t.not(tableFingerprint(twoTables), print);
});

test("bets during every reading leave it consistent: a real gap is a mismatch", async (t) => {
  // The wallet debited 100.00 for sits, the table credited 200.00: 100.00 created. Bets on every reading.
  const busy = [5, 6, 7, 8].map((version) => tableAudit({ credited: 20_000, stakes: version * 100, version }));
  const input = await readAudit(sources([walletAudit(10_000)], busy));
  t.like(input, { consistent: true, readings: 3 });
  const report = reconcile(input);
  t.is(report.status, "mismatch");
  t.deepEqual(
    report.mismatches.map((m) => m.check),
    ["transfers-in", "conservation"],
  );
});

test("a consistent mismatch stands when the later readings are taken while money moves", async (t) => {
  // Reading 1 (tables 0 and 1) is quiet; a leave opens and goes during readings 2 and 3.
  const tables = [
    tableAudit({ credited: 20_000 }),
    tableAudit({ credited: 20_000 }),
    tableAudit({ credited: 20_000, transfers: ["leave-1"] }),
    tableAudit({ credited: 20_000 }),
  ];
  const input = await readAudit(sources([walletAudit(10_000)], tables));
  t.like(input, { consistent: true, readings: 3, table: tables[1] });
  t.is(reconcile(input).status, "mismatch");
});

test("a consistent mismatch a later consistent reading clears was a passing transfer", async (t) => {
  // Reading 1 reads the wallet between a refused sit's debit and its refund; reading 2 after both.
  const wallets = [walletAudit(20_000), walletAudit(20_000, 10_000)];
  const tables = [tableAudit({ credited: 10_000 }), tableAudit({ credited: 10_000, version: 6 })];
  const input = await readAudit(sources(wallets, tables));
  t.like(input, { consistent: true, readings: 2, wallet: wallets[1] });
  t.is(reconcile(input).status, "clean");
});

/** Table readings with another player's leave opening during each: never two alike, never consistent. */
function busyTables(state: TableState, count = 4): TableAuditResponse[] {
  return Array.from({ length: count }, (_, i) => tableAudit({ ...state, transfers: [`leave-${i}`] }));
}

test("money created or lost is a mismatch though money moves in every reading: what only grows bounds it", async (t) => {
  // The tables credited seats 200.00 for 100.00 of sits: below what they had credited before the wallet was read.
  const created = await readAudit(sources([walletAudit(10_000)], busyTables({ credited: 20_000 })));
  t.like(created, { consistent: false, readings: 3 });
  t.deepEqual(
    reconcile(created).mismatches.map((m) => m.check),
    ["transfers-in", "conservation"],
  );
  // The tables marked 50.00 delivered that no account was credited: below what they had delivered before.
  const lost = await readAudit(sources([walletAudit(15_000)], busyTables({ credited: 10_000, delivered: 5_000 })));
  t.like(reconcile(lost), { status: "mismatch" });
  t.deepEqual(
    reconcile(lost).mismatches.map((m) => m.check),
    ["credits-out", "conservation"],
  );
  // An account credited a 50.00 payout that no table owed: above what the tables delivered or owed after.
  const paid = walletAudit(10_000);
  paid.reasonTotals.push({ kind: MovementKind.MOVEMENT_KIND_CREDIT, reason: "payout", count: 1, amountCents: 5_000 });
  paid.totals!.creditsCents += 5_000;
  paid.totals!.balancesCents += 5_000;
  const phantom = await readAudit(sources([paid], busyTables({ credited: 10_000 })));
  t.deepEqual(
    reconcile(phantom).mismatches.map((m) => m.check),
    ["credits-out", "conservation"],
  );
  // 100.00 more debited for sits than seats took: a sit refused after its debit and refunded while the
  // wallet was read would look alike, and leaves no trace on the tables. Only a quiet reading decides.
  const unsure = await readAudit(sources([walletAudit(30_000)], busyTables({ credited: 20_000 })));
  t.like(reconcile(unsure), { status: "pending" });
});
