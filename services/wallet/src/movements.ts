import { backoff, NotFoundError, PerKeyQueue, UnavailableError } from "@pokerodds/common";
import { isRecorded, nextEntry, replay, type LedgerEntry, type MovementRequest } from "./domain/movement.js";
import type { LedgerStore } from "./ledger-store.js";

/** Enough for many replicas writing to one account at once; beyond it the caller retries with its key. */
const MAX_ATTEMPTS = 100;

export interface MovementOutcome {
  entry: LedgerEntry;
  /** The key had been used by this same request already: `entry` is its first outcome. */
  replayed: boolean;
}

export class Movements {
  private readonly queue = new PerKeyQueue();

  constructor(private readonly ledger: LedgerStore) {}

  /**
   * Records the movement's outcome, applied or refused, exactly once per idempotency key (but for a
   * table's credit refused at the balance limit, which is only answered: isRecorded).
   */
  record(request: MovementRequest): Promise<MovementOutcome> {
    return this.queue.run(request.playerId, () => this.append(request));
  }

  /**
   * Appends the outcome as the entry right after the account's latest. The log's unique inserts
   * decide, atomically: a sequence taken means another writer appended first and our balance is
   * stale, so we decide again on the entry that took it; a key taken means this request (or a
   * different one under its key) already has an outcome. So nothing ever relies on a balance that
   * another writer may have changed in the meantime.
   */
  private async append(request: MovementRequest): Promise<MovementOutcome> {
    let head = await this.ledger.head(request.playerId);
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      // Accounts are opened only by their welcome credit, which GetProfile makes.
      if (!head && request.kind !== "welcome") throw new NotFoundError(`no account for player ${request.playerId}`);
      // A retry that comes straight back finds its own first outcome on top: no insert to lose.
      if (head?.idempotencyKey === request.idempotencyKey) return { entry: replay(head, request), replayed: true };
      const entry = nextEntry(head, request, new Date());
      if (!isRecorded(entry)) return this.answerUnrecorded(entry, request);
      const appended = await this.ledger.append(entry);
      if (appended.kind === "appended") return { entry, replayed: false };
      if (appended.kind === "keyTaken") return { entry: replay(appended.first, request), replayed: true };
      // A lost race: the winner's entry is the newest we know of. Only another replica can have won
      // (this one queues its own writers), so spread out.
      head = appended.winner;
      await backoff(attempt);
    }
    throw new UnavailableError("the account is busy; retry with the same idempotency key");
  }

  /**
   * A refusal no entry records, unless the key has an outcome already: a credit applied earlier
   * (its answer lost) and since covered by later entries is replayed, not refused, however full the
   * account is now. Answered, not stored, a refusal has no entry id or sequence.
   */
  private async answerUnrecorded(entry: LedgerEntry, request: MovementRequest): Promise<MovementOutcome> {
    const first = await this.ledger.findByKey(request.idempotencyKey);
    if (first) return { entry: replay(first, request), replayed: true };
    return { entry: { ...entry, entryId: "", sequence: 0 }, replayed: false };
  }
}
