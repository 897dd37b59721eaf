import { NotFoundError, UnavailableError } from "@pokerodds/common";
import { randomUUID } from "node:crypto";
import { backoff } from "./backoff.js";
import { nextEntry, replay, type LedgerEntry, type MovementRequest } from "./domain/movement.js";
import type { LedgerStore } from "./ledger-store.js";
import { PerKeyQueue } from "./per-key-queue.js";

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
   * Appends the outcome as the entry right after the account's latest. The insert itself decides,
   * atomically, through the ledger's unique indexes:
   * - (playerId, sequence) taken: another writer appended first and our balance is stale; read again.
   * - idempotency key taken: this request (or a different one under its key) already has an outcome.
   * So nothing ever relies on a balance that another writer may have changed in the meantime.
   */
  private async append(request: MovementRequest): Promise<MovementOutcome> {
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      const head = await this.ledger.head(request.playerId);
      // Accounts are opened only by their welcome credit, which GetProfile makes.
      if (!head && request.kind !== "welcome") throw new NotFoundError(`no account for player ${request.playerId}`);
      const entry = nextEntry(head, request, randomUUID(), new Date());
      if (await this.ledger.insert(entry)) return { entry, replayed: false };
      const first = await this.ledger.findByKey(request.idempotencyKey);
      if (first) return { entry: replay(first, request), replayed: true };
      await backoff(attempt);
    }
    throw new UnavailableError("the account is busy; retry with the same idempotency key");
  }
}
