// Transfers between an account and a seat (sit, top-up, leave): sagas whose steps are idempotent
// by key, so driving one again, by a retry, a second replica or recovery, is always safe.
//
// Three collections, none updated in place (FerretDB v1 updates are read-then-write, and every
// query scans its collection, so the growing ones are insert-only and read on replays alone):
// - `transfers`: the claim. Its insert decides, once, what a (player, idempotency key) pair does:
//   FINAL (answered before any money moved: a NACK, a leave with no seat) or PENDING (money in play).
// - `transferOutcomes`: the answer of a finished PENDING transfer, for replays. A cache of what the
//   idempotent steps yield; the wallet ledger and the table snapshot are the truth.
// - `pendingTransfers`: small, holds the transfers in progress, written before the claim and removed
//   after the outcome, so recovery finds unfinished work without scanning the claims.
import { UnavailableError, type ErrorKind } from "@pokerodds/common";
import type { Collection, Db } from "mongodb";
import { insertUnlessPresent } from "@pokerodds/common/mongo";

export type TransferKind = "sit" | "topup" | "leave";

/** What a transfer is about: two requests under one key must agree on these. */
export interface TransferTerms {
  kind: TransferKind;
  playerId: string;
  tableId: number;
  /** The buy-in or top-up; 0 for a leave. */
  amountCents: number;
}

export type TransferOutcome<R = unknown> =
  { ok: true; value: R } | { ok: false; error: { kind: ErrorKind; message: string } };

export interface TransferClaim extends TransferTerms {
  _id: string;
  idempotencyKey: string;
  state: "FINAL" | "PENDING";
  /** A FINAL claim's answer; null for PENDING. */
  outcome: TransferOutcome | null;
  /** Seat name and avatar for a sit, fixed when claimed so every driver seats the same. */
  playerName: string;
  avatarImageUrl: string;
  /**
   * For a leave or a top-up, the seat session it was asked for (the seat's sessionId at the
   * precheck), so that recovery never leaves, or tops up, a seat taken after it; empty for a sit.
   */
  sessionId: string;
  createdAt: Date;
}

export const sameTerms = (a: TransferTerms, b: TransferTerms): boolean =>
  a.kind === b.kind && a.playerId === b.playerId && a.tableId === b.tableId && a.amountCents === b.amountCents;

/**
 * An insert refused for a document the next read cannot see: on MongoDB, a concurrent writer's that
 * the primary has applied (its unique index refuses ours) but not yet replicated (majority reads miss it).
 */
const notVisibleYet = (transferId: string) =>
  new UnavailableError(
    `transfer ${transferId} was taken by a write not visible yet; retry with the same idempotency key`,
  );

export class TransferStore {
  private readonly claims: Collection<TransferClaim>;
  private readonly outcomes: Collection<{ _id: string; outcome: TransferOutcome; createdAt: Date }>;
  private readonly pending: Collection<{ _id: string; claim: TransferClaim; createdAt: Date }>;

  constructor(db: Db) {
    this.claims = db.collection("transfers");
    this.outcomes = db.collection("transferOutcomes");
    this.pending = db.collection("pendingTransfers");
  }

  /** Inserts the claim; if the transfer was claimed before, answers that first claim instead. */
  async claim(claim: TransferClaim): Promise<{ claimed: true } | { claimed: false; existing: TransferClaim }> {
    if (await insertUnlessPresent(() => this.claims.insertOne(claim))) return { claimed: true };
    const existing = await this.find(claim._id);
    if (!existing) throw notVisibleYet(claim._id);
    return { claimed: false, existing };
  }

  find(transferId: string): Promise<TransferClaim | null> {
    return this.claims.findOne({ _id: transferId });
  }

  async outcome(transferId: string): Promise<TransferOutcome | null> {
    return (await this.outcomes.findOne({ _id: transferId }))?.outcome ?? null;
  }

  /**
   * The first outcome recorded wins, and is what every driver answers. Drivers make the same
   * steps, so outcomes agree on the money; a balance read at a different moment may differ.
   */
  async recordOutcome<R>(transferId: string, outcome: TransferOutcome<R>): Promise<TransferOutcome<R>> {
    if (await insertUnlessPresent(() => this.outcomes.insertOne({ _id: transferId, outcome, createdAt: new Date() }))) {
      return outcome;
    }
    const first = (await this.outcome(transferId)) as TransferOutcome<R> | null;
    if (!first) throw notVisibleYet(transferId);
    return first;
  }

  /** Before the claim: recovery can then claim and drive it even if this process dies right after. */
  async markPending(claim: TransferClaim): Promise<void> {
    await insertUnlessPresent(() => this.pending.insertOne({ _id: claim._id, claim, createdAt: claim.createdAt }));
  }

  async clearPending(transferId: string): Promise<void> {
    await this.pending.deleteOne({ _id: transferId });
  }

  async listPending(): Promise<TransferClaim[]> {
    return (await this.pending.find({}).toArray()).map((p) => p.claim);
  }
}
