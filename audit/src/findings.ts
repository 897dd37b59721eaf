// What the checks find, in the order they find it: mismatches (a rule is broken) and unsettled items
// (nothing wrong, but not settled yet). Every figure leaves the audit as a JSON number through num(),
// which notes any that cannot be reported to the cent.
import type { AuditCheck, AuditFinding } from "./report.js";

const MAX_LISTED = 5;

export class Findings {
  readonly mismatches: AuditFinding[] = [];
  readonly unsettled: AuditFinding[] = [];
  /** Checks whose values could not be reported exactly as JSON numbers. */
  private inexact = false;

  mismatch(check: AuditCheck, message: string): void {
    this.mismatches.push({ check, message });
  }

  pending(check: AuditCheck, message: string): void {
    this.unsettled.push({ check, message });
  }

  /** A bigint as a JSON number, noting any value past 2^53 (it cannot be reported to the cent). */
  num(value: bigint): number {
    if (value > BigInt(Number.MAX_SAFE_INTEGER) || value < BigInt(Number.MIN_SAFE_INTEGER)) this.inexact = true;
    return Number(value);
  }

  /** exact-range: last, once every reported figure has been converted. */
  close(): void {
    if (this.inexact) this.mismatch("exact-range", "a figure is beyond 2^53 cents and cannot be reported exactly");
  }
}

/** The first few items, described, and how many more there are (of `total`, when `items` lists only the first). */
export function listed<T>(items: readonly T[], describe: (item: T) => string, total = items.length): string {
  const shown = items.slice(0, MAX_LISTED).map(describe).join("; ");
  const left = total - Math.min(items.length, MAX_LISTED);
  return left > 0 ? `${shown}; and ${left} more` : shown;
}
