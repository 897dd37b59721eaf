import { backoff, NotFoundError, PerKeyQueue, UnavailableError } from "@pokerodds/common";
import { nextEntry, replay, type LedgerEntry, type MovementRequest } from "./domain/movement.js";
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

  /** Records the movement's outcome, applied or refused, exactly once per idempotency key. */
  apply(request: MovementRequest): Promise<MovementOutcome> {
    return this.queue.run(request.playerId, () => this.append(request));
  }

  /**
   * Appends the outcome as the entry right after the latest one we know of. The insert itself
   * decides, atomically, through the ledger's unique indexes:
   * - sequence taken (the _id): another writer appended first and our balance is stale; build on
   *   the entry that took it instead.
   * - idempotency key taken: this request (or a different one under its key) already has an outcome.
   * So nothing ever relies on a balance that another writer may have changed in the meantime, and
   * the account-heads hint that the first read starts from only saves reads: a lagging hint makes
   * the insert fail exactly like a lost race.
   */
  private async append(request: MovementRequest): Promise<MovementOutcome> {
    // Always an entry that exists (read from the ledger), so never ahead of the account's latest.
    let head = await this.ledger.knownEntry(request.playerId);
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      // Accounts are opened only by their welcome credit, which GetProfile makes.
      if (!head && request.kind !== "welcome") throw new NotFoundError(`no account for player ${request.playerId}`);
      // A retry that comes straight back finds its own first outcome on top: no insert to lose.
      if (head?.idempotencyKey === request.idempotencyKey) return { entry: replay(head, request), replayed: true };
      const entry = nextEntry(head, request, new Date());
      if (await this.ledger.insert(entry)) {
        // The entry is in; the hint only spares the next read some steps, so failing to move it
        // (the database just went away) does not undo the movement.
        await this.ledger.advanceHint(entry.playerId, entry.sequence).catch(() => undefined);
        return { entry, replayed: false };
      }
      // Refused: the sequence is taken, or the key, or both. The entry at our sequence says which.
      const taken = await this.ledger.entry(request.playerId, entry.sequence);
      if (taken?.idempotencyKey === request.idempotencyKey) return { entry: replay(taken, request), replayed: true };
      if (!taken) {
        // The sequence is free, so the key is taken: the request's outcome is further back.
        const first = await this.ledger.findByKey(request.idempotencyKey);
        if (first) return { entry: replay(first, request), replayed: true };
      }
      // A lost race: the winner's entry is the newest we know of (if both the sequence and the key
      // were taken, the next attempt lands on a free sequence and finds the key above).
      head = taken ?? (await this.ledger.knownEntry(request.playerId));
      await backoff(attempt);
    }
    throw new UnavailableError("the account is busy; retry with the same idempotency key");
  }
}
