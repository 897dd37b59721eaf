// The audit report: what reconcile() makes of both services' audits, what the gateway answers to
// GET /api/admin/audit (its OpenAPI document includes this schema as it is) and what `npm run audit`
// checks an answer against. It lives here, with the code that builds and reads it, because the gateway
// depends on this package and not the other way round. Amounts are integer cents (an audit is about the
// last cent, and some figures are negative), unlike the player-facing endpoints, which report units.
import { Type, type Static, type TLiteral } from "@sinclair/typebox";
import { AUDIT_ISSUES_LISTED } from "@pokerodds/common/limits";

const cents = (description: string) => Type.Integer({ description: `${description}, in integer cents` });

const AUDIT_STATUSES = ["clean", "pending", "mismatch"] as const;
export const MOVEMENT_KINDS = ["WELCOME", "DEBIT", "CREDIT", "DEPOSIT", "WITHDRAW", "UNSPECIFIED"] as const;
export const TRANSFER_KINDS = ["SIT", "TOP_UP", "LEAVE", "UNSPECIFIED"] as const;
export const AUDIT_CHECKS = [
  "wallet-clean",
  "wallet-identity",
  "wallet-kinds",
  "wallet-reasons",
  "table-conserved",
  "table-identity",
  "table-outbox",
  "table-totals",
  "table-transfers",
  "transfers-in",
  "credits-out",
  "conservation",
  "snapshot",
  "open-transfers",
  "pending-credits",
  "exact-range",
] as const;

const literals = <const T extends readonly string[]>(values: T, description: string) =>
  Type.Union(values.map((value) => Type.Literal(value)) as TLiteral<T[number]>[], { description });

const Finding = Type.Object(
  {
    check: literals(AUDIT_CHECKS, "Which rule this is about"),
    message: Type.String({ description: "Human-readable, with amounts in units" }),
  },
  { additionalProperties: false },
);

const Identity = Type.Object(
  {
    accountBalancesCents: cents("Sum of every account balance"),
    seatsCents: cents("Sum of every seat balance"),
    openStakesCents: cents("Stakes of bets not settled yet"),
    owedToAccountsCents: cents("Table outboxes: credits owed to accounts, not delivered yet"),
    houseResultCents: cents("What the house won (negative when it lost)"),
    heldCents: cents("accountBalances + seats + openStakes + owedToAccounts + houseResult"),
    welcomeCreditsCents: cents("Welcome credits"),
    depositsCents: cents("Deposits"),
    withdrawalsCents: cents("Withdrawals"),
    fundedCents: cents("welcomeCredits + deposits - withdrawals"),
    differenceCents: cents("held - funded: 0 when conserved and settled"),
    inTransitCents: cents(
      "Debited from accounts for sits and top-ups, neither on a seat nor refunded yet (missing from held)",
    ),
    creditedNotMarkedCents: cents(
      "Credited to accounts but still in a table outbox, delivery not yet recorded (counted twice in held)",
    ),
    unexplainedCents: cents("difference + inTransit - creditedNotMarked: 0 whenever money is conserved"),
    holds: Type.Boolean({ description: "held = funded, to the cent" }),
  },
  { additionalProperties: false },
);

const CrossCheck = Type.Object(
  {
    check: literals(["transfers-in", "credits-out"], "transfers-in: sits and top-ups; credits-out: table credits"),
    formula: Type.String(),
    walletCents: cents("transfers-in: debits sit + topup; credits-out: credits leave + payout + void-refund"),
    refundsCents: cents("transfers-in: credits sit-refund + topup-refund; credits-out: 0"),
    tableCents: cents("transfers-in: the tables' credited; credits-out: the tables' delivered"),
    differenceCents: cents("wallet - refunds - table: money between the two sides"),
    openCents: cents("What the open transfers (transfers-in) or pending credits (credits-out) add up to"),
    holds: Type.Boolean({ description: "difference = 0" }),
    explained: Type.Boolean({
      description: "difference is the sum of some of the open transfers or pending credits (always true when it holds)",
    }),
  },
  { additionalProperties: false },
);

const WalletTotals = Type.Object(
  {
    balancesCents: cents("Sum of account balances"),
    welcomeCreditsCents: cents("Welcome credits"),
    depositsCents: cents("Deposits"),
    withdrawalsCents: cents("Withdrawals"),
    debitsCents: cents("Debits (to tables)"),
    creditsCents: cents("Credits (from tables)"),
  },
  { additionalProperties: false },
);

const ReasonTotal = Type.Object(
  {
    kind: literals(MOVEMENT_KINDS, "Movement kind"),
    reason: Type.String(),
    count: Type.Integer({ minimum: 0 }),
    amountCents: cents("Applied amount, positive whatever the direction"),
  },
  { additionalProperties: false },
);

const WalletIssue = Type.Object(
  {
    playerId: Type.String(),
    sequence: Type.Integer({ description: "Ledger entry; 0 for the account as a whole" }),
    problem: Type.String(),
  },
  { additionalProperties: false },
);

const WalletSection = Type.Object(
  {
    clean: Type.Boolean({ description: "The wallet's own audit: conserved and no ledger issue" }),
    conserved: Type.Boolean(),
    accounts: Type.Integer({ minimum: 0 }),
    entries: Type.Integer({ minimum: 0 }),
    refusedEntries: Type.Integer({ minimum: 0 }),
    totals: WalletTotals,
    reasonTotals: Type.Array(ReasonTotal),
    issueCount: Type.Integer({ minimum: 0 }),
    issues: Type.Array(WalletIssue, { description: `The first ${AUDIT_ISSUES_LISTED} ledger issues` }),
  },
  { additionalProperties: false },
);

export const TableMoneyBody = Type.Object(
  {
    seatsCents: cents("Seat balances"),
    openStakesCents: cents("Stakes of bets not settled yet"),
    outboxCents: cents("Owed to accounts, not delivered yet"),
    deliveredCents: cents("Delivered to accounts from the outbox, ever"),
    houseResultCents: cents("House result, ever"),
    creditedCents: cents("Sits and top-ups credited to seats, ever"),
  },
  { additionalProperties: false },
);

const ProblemTable = Type.Object(
  {
    tableId: Type.Integer(),
    version: Type.Integer(),
    gameId: Type.String(),
    gameState: Type.String(),
    conserved: Type.Boolean({ description: "As the table service reports it" }),
    money: TableMoneyBody,
  },
  { additionalProperties: false },
);

const TablesSection = Type.Object(
  {
    conserved: Type.Boolean({ description: "Every table conserved, as the table service reports it" }),
    tableCount: Type.Integer({ minimum: 0 }),
    games: Type.Integer({ minimum: 0, description: "Finished games (settled or void)" }),
    totals: TableMoneyBody,
    problemTables: Type.Array(ProblemTable, { description: "Tables that break a rule; the rest are in totals only" }),
  },
  { additionalProperties: false },
);

const OpenTransfer = Type.Object(
  {
    transferId: Type.String(),
    kind: literals(TRANSFER_KINDS, "SIT, TOP_UP or LEAVE"),
    playerId: Type.String(),
    tableId: Type.Integer(),
    amountCents: cents("Buy-in or top-up; 0 for a leave"),
    createdAt: Type.String(),
  },
  { additionalProperties: false },
);

const PendingCredit = Type.Object(
  {
    tableId: Type.Integer(),
    key: Type.String({ description: "The wallet credit's idempotency key" }),
    playerId: Type.String(),
    amountCents: cents("Owed to the account"),
    reason: Type.String({ description: "leave, payout or void-refund" }),
    reference: Type.String(),
  },
  { additionalProperties: false },
);

export const AuditReport = Type.Object(
  {
    status: literals(
      AUDIT_STATUSES,
      "clean: conserved to the cent and settled; pending: nothing wrong found, but transfers are open, credits " +
        "undelivered or money moved while reading; mismatch: a rule is broken",
    ),
    clean: Type.Boolean({ description: "status is clean" }),
    settled: Type.Boolean({ description: "No open transfer and no undelivered credit" }),
    auditedAt: Type.String({ description: "ISO 8601, when the reading began" }),
    snapshot: Type.Object(
      {
        consistent: Type.Boolean({
          description: "The table side did not change while the wallet was read: the cross-checks are authoritative",
        }),
        readings: Type.Integer({ minimum: 1, description: "Readings taken to get one (at most 3)" }),
      },
      { additionalProperties: false },
    ),
    mismatches: Type.Array(Finding, { description: "Broken rules; empty unless status is mismatch" }),
    unsettled: Type.Array(Finding, { description: "Why a report without mismatches is not clean yet" }),
    identity: Identity,
    crossChecks: Type.Array(CrossCheck),
    wallet: WalletSection,
    tables: TablesSection,
    openTransfers: Type.Array(OpenTransfer, { description: "Sits, top-ups and leaves not finished" }),
    pendingCredits: Type.Array(PendingCredit, { description: "Credits tables owe accounts, not delivered yet" }),
  },
  {
    additionalProperties: false,
    description:
      "Conservation: accountBalances + seats + openStakes + owedToAccounts + houseResult = welcomeCredits + " +
      "deposits - withdrawals, with both sides' own audits and the wallet-table cross-checks",
  },
);

export type AuditReportBody = Static<typeof AuditReport>;
export type AuditFinding = Static<typeof Finding>;
export type AuditCheck = (typeof AUDIT_CHECKS)[number];
export type CrossCheckBody = Static<typeof CrossCheck>;
export type TableMoneyBodyType = Static<typeof TableMoneyBody>;
