// The audit recomputes every account from its ledger alone: each entry's outcome and balance must be
// exactly what decide() makes of its predecessor's balance, sequences run 1, 2, 3... from the
// welcome credit, and the recorded balances add up to the money that came in minus what went out.
import { AUDIT_ISSUES_LISTED } from "@pokerodds/common/limits";
import { WELCOME_CREDIT_CENTS } from "./money.js";
import { decide, type LedgerEntry, type MovementKind } from "./movement.js";

// Field for field the proto's AuditTotals, on purpose: the domain reports in its own types and
// proto-mapping.ts copies them to the wire.
export interface AuditTotals {
  /** Sum of every account's last recorded balance. */
  balancesCents: number;
  welcomeCreditsCents: number;
  depositsCents: number;
  withdrawalsCents: number;
  debitsCents: number;
  creditsCents: number;
}

export interface ReasonTotal {
  kind: MovementKind;
  reason: string;
  count: number;
  /** Positive whatever the direction. */
  amountCents: number;
}

export interface AuditIssue {
  playerId: string;
  /** 0 for the account as a whole. */
  sequence: number;
  problem: string;
}

export interface AuditReport {
  accounts: number;
  entries: number;
  refusedEntries: number;
  totals: AuditTotals;
  reasonTotals: ReasonTotal[];
  /** balances = welcome credits + deposits + credits - withdrawals - debits */
  conserved: boolean;
  /** The first AUDIT_ISSUES_LISTED found. */
  issues: AuditIssue[];
  /** Every issue found. */
  issueCount: number;
  clean: boolean;
}

const TOTAL_OF_KIND: Record<MovementKind, Exclude<keyof AuditTotals, "balancesCents">> = {
  welcome: "welcomeCreditsCents",
  deposit: "depositsCents",
  withdraw: "withdrawalsCents",
  debit: "debitsCents",
  credit: "creditsCents",
};

/** Where the audit of one account stands. */
interface AccountState {
  latest: LedgerEntry | null;
  /** Entries read ahead of their predecessor, by sequence: kept until it comes, or the end. */
  early: Map<number, LedgerEntry>;
}

/**
 * Feed it every entry, in any order, then ask for the report. The ledger's storage order has each
 * account's entries in sequence order (accounts interleave), so an entry read early is rare (a
 * restored document); memory grows with the accounts and such entries, not with the ledger.
 */
export class LedgerAuditor {
  private readonly totals: AuditTotals = {
    balancesCents: 0,
    welcomeCreditsCents: 0,
    depositsCents: 0,
    withdrawalsCents: 0,
    debitsCents: 0,
    creditsCents: 0,
  };
  private readonly reasonTotals = new Map<string, ReasonTotal>();
  private readonly issues: AuditIssue[] = [];
  private issueCount = 0;
  private readonly accounts = new Map<string, AccountState>();
  private entries = 0;
  private refusedEntries = 0;

  add(entry: LedgerEntry): void {
    let account = this.accounts.get(entry.playerId);
    if (!account) this.accounts.set(entry.playerId, (account = { latest: null, early: new Map() }));
    if (entry.sequence !== (account.latest?.sequence ?? 0) + 1) {
      account.early.set(entry.sequence, entry);
      return;
    }
    this.accept(account, entry);
    let next = account.early.get(entry.sequence + 1);
    while (next) {
      account.early.delete(next.sequence);
      this.accept(account, next);
      next = account.early.get(next.sequence + 1);
    }
  }

  /** Each account's missing sequences before an entry read early: `from` to `to`, both included. */
  gaps(): { playerId: string; from: number; to: number }[] {
    return [...this.accounts].flatMap(([playerId, account]) =>
      account.early.size === 0
        ? []
        : [{ playerId, from: (account.latest?.sequence ?? 0) + 1, to: lowest(account.early.keys()) - 1 }],
    );
  }

  /** Once, after the last entry. `playerIds`: every player the wallet knows; an account must belong to one of them. */
  report(playerIds: ReadonlySet<string>): AuditReport {
    for (const [playerId, account] of this.accounts) {
      // What never found its predecessor follows a gap: checked in order, so the gap is named.
      for (const entry of [...account.early.values()].sort((a, b) => a.sequence - b.sequence)) {
        this.accept(account, entry);
      }
      this.totals.balancesCents += account.latest?.balanceAfterCents ?? 0;
      if (!playerIds.has(playerId)) this.issue(playerId, 0, "ledger entries for a player that does not exist");
    }
    const { balancesCents, welcomeCreditsCents, depositsCents, withdrawalsCents, debitsCents, creditsCents } =
      this.totals;
    if (!Object.values(this.totals).every(Number.isSafeInteger))
      this.issue("", 0, "totals exceed the exact integer range");
    const conserved =
      balancesCents === welcomeCreditsCents + depositsCents + creditsCents - withdrawalsCents - debitsCents;
    const reasonTotals = [...this.reasonTotals.values()].sort(
      (a, b) => a.kind.localeCompare(b.kind) || a.reason.localeCompare(b.reason),
    );
    return {
      accounts: this.accounts.size,
      entries: this.entries,
      refusedEntries: this.refusedEntries,
      totals: { ...this.totals },
      reasonTotals,
      conserved,
      issues: [...this.issues],
      issueCount: this.issueCount,
      clean: conserved && this.issueCount === 0,
    };
  }

  private accept(account: AccountState, entry: LedgerEntry): void {
    this.checkEntry(entry, account.latest);
    this.count(entry);
    account.latest = entry;
  }

  private checkEntry(entry: LedgerEntry, previous: LedgerEntry | null): void {
    const expectedSequence = (previous?.sequence ?? 0) + 1;
    if (entry.sequence !== expectedSequence) {
      this.issue(entry.playerId, entry.sequence, `sequence ${entry.sequence} where ${expectedSequence} was expected`);
    }
    if ((entry.sequence === 1) !== (entry.kind === "welcome")) {
      this.issue(entry.playerId, entry.sequence, "the welcome credit must be the account's first entry, and only that");
    }
    if (entry.kind === "welcome" && entry.requestedCents !== WELCOME_CREDIT_CENTS) {
      this.issue(entry.playerId, entry.sequence, `welcome credit of ${entry.requestedCents} cents`);
    }
    // Every recorded outcome must be the one the rules give from the previous recorded balance.
    const balanceBefore = previous?.balanceAfterCents ?? 0;
    const expected = decide(balanceBefore, entry.kind, entry.requestedCents);
    if (
      entry.applied !== expected.applied ||
      entry.refusal !== expected.refusal ||
      entry.amountCents !== expected.amountCents ||
      entry.balanceAfterCents !== expected.balanceAfterCents
    ) {
      this.issue(
        entry.playerId,
        entry.sequence,
        `recorded ${describe(entry)} after a balance of ${balanceBefore} cents; the rules give ${describe(expected)}`,
      );
    }
  }

  private count(entry: LedgerEntry): void {
    this.entries++;
    if (!entry.applied) {
      this.refusedEntries++;
      return;
    }
    const magnitude = Math.abs(entry.amountCents);
    this.totals[TOTAL_OF_KIND[entry.kind]] += magnitude;
    const key = `${entry.kind}\u0000${entry.reason}`;
    const total = this.reasonTotals.get(key) ?? { kind: entry.kind, reason: entry.reason, count: 0, amountCents: 0 };
    total.count++;
    total.amountCents += magnitude;
    this.reasonTotals.set(key, total);
  }

  private issue(playerId: string, sequence: number, problem: string): void {
    this.issueCount++;
    if (this.issues.length < AUDIT_ISSUES_LISTED) this.issues.push({ playerId, sequence, problem });
  }
}

function describe(outcome: Pick<LedgerEntry, "applied" | "refusal" | "amountCents" | "balanceAfterCents">): string {
  const what = outcome.applied ? `${outcome.amountCents} cents applied` : `refused (${outcome.refusal})`;
  return `${what}, balance ${outcome.balanceAfterCents}`;
}

/** The lowest of many numbers (a spread of them all into Math.min can pass the engine's argument limit). */
function lowest(values: Iterable<number>): number {
  let min = Infinity;
  for (const value of values) if (value < min) min = value;
  return min;
}
