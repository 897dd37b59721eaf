// Random sequences of operations, valid and not, against one table: after every step each cent
// credited to the table is in a seat, an open stake, the outbox (pending or delivered) or the house
// result, all counted here independently of tableMoney; refusals store nothing; inputs never change.

import test from "ava";
import fc from "fast-check";
import { DomainError } from "@pokerodds/common/errors";
import { type AdvanceInput, advancePlan, applyAdvance, closeBetting } from "../src/domain/advance.js";
import { type BetCommand, applyBet } from "../src/domain/bets.js";
import { applyLeave, applySit, applyTopUp } from "../src/domain/seats.js";
import { isConserved, markDelivered, tableMoney } from "../src/domain/snapshot.js";
import type { HandOdds, TableSnapshot } from "../src/domain/types.js";
import { T0, dealInput, deepFreeze, newTable, panels, riverPanels } from "./helpers/fixtures.js";

const PLAYERS = ["p0", "p1", "p2", "p3", "p4", "p5", "p6"];

const amount = fc.oneof(
  fc.integer({ min: 1, max: 5_000 }),
  fc.integer({ min: 1, max: 100_000_000_000 }),
  fc.constantFrom(1, 99, 100, 333),
);
const player = fc.integer({ min: 0, max: PLAYERS.length - 1 }).map((i) => PLAYERS[i]!);
/** Win percentages for 4 hands: 0 (cannot win) or 1..100; odds roughly 0.97 / p in tenths. */
const stageSpecs = fc.array(fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 100 })), {
  minLength: 4,
  maxLength: 4,
});

const op = fc.oneof(
  fc.record({ kind: fc.constant("sit" as const), player, amount }),
  fc.record({ kind: fc.constant("topup" as const), player, amount, replay: fc.boolean() }),
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant("bet" as const),
      player,
      hand: fc.integer({ min: 0, max: 3 }),
      amount,
      ownSeat: fc.integer({ min: 0, max: 5 }).map((n) => n > 0),
      replay: fc.integer({ min: 0, max: 7 }).map((n) => n === 0),
    }),
  },
  fc.record({ kind: fc.constant("leave" as const), player }),
  {
    // Twice as likely: a reveal takes two (its stage's close, then the cards).
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant("advance" as const),
      player,
      admin: fc.boolean(),
      wins: stageSpecs,
      winners: fc.subarray([0, 1, 2, 3], { minLength: 1 }),
    }),
  },
  fc.record({ kind: fc.constant("deliver" as const), pick: fc.array(fc.nat(), { maxLength: 3 }) }),
);
type Op = typeof op extends fc.Arbitrary<infer T> ? T : never;

function stagePanels(stage: 0 | 1 | 2, wins: readonly number[]): HandOdds[] {
  return panels(
    stage,
    wins.map((w) => [w, w === 0 ? 5 : 0, w === 0 ? 0 : Math.max(1, Math.round(970 / w))] as const),
  );
}

const sum = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0);

test("property: every cent credited is in a seat, an open stake, the outbox or the house result", (t) => {
  let steps = 0;
  let settled = 0;
  let voided = 0;
  let paid = 0;
  fc.assert(
    fc.property(fc.array(op, { minLength: 10, maxLength: 100, size: "max" }), (ops: Op[]) => {
      let s: TableSnapshot = newTable();
      let credited = 0;
      let delivered = 0;
      let house = 0;
      let lastBet: BetCommand | null = null;
      for (const [i, o] of ops.entries()) {
        const now = T0 + i * 1_000;
        const prev = s;
        let next: TableSnapshot | null = null;
        try {
          switch (o.kind) {
            case "sit": {
              const r = applySit(
                s,
                {
                  playerId: o.player,
                  playerName: o.player,
                  avatarImageUrl: "",
                  amountCents: o.amount,
                  transferId: `s${i}`,
                },
                now,
              );
              next = r.next;
              if (r.result.acknowledged) credited += o.amount;
              else if (r.next) return false; // a NACK stores nothing
              break;
            }
            case "topup": {
              // A replayed top-up never reaches the domain: its credit's operation key is stored.
              const before = s.seats.find((x) => x.playerId === o.player)?.balanceCents;
              const r = applyTopUp(s, { playerId: o.player, amountCents: o.amount }, now);
              next = r.next;
              if (next) {
                credited += o.amount;
                if (r.result.seatBalanceCents !== before! + o.amount) return false;
              }
              break;
            }
            case "bet": {
              const seat = s.seats.find((x) => x.playerId === o.player);
              // A replay re-sends the last bet placed in this game: it must answer it and store nothing.
              // (Across games the adapter's operation key catches replays: bets are per game.)
              const replayable = lastBet && s.bets.some((b) => b.betId === lastBet!.betId) ? lastBet : null;
              const command: BetCommand =
                o.replay && replayable
                  ? replayable
                  : {
                      playerId: o.player,
                      seatIndex: o.ownSeat ? (seat?.seatId ?? 1) : 1 + (i % 6),
                      handIndex: o.hand,
                      betAmountCents: o.amount,
                      betId: `b${i}`,
                    };
              const r = applyBet(s, command, now);
              next = r.next;
              if (command === lastBet && (next || !r.result.acknowledged)) return false;
              if (next) lastBet = command;
              // NACK exactly when the seat cannot cover the stake.
              if (!r.result.acknowledged && !(seat && seat.balanceCents < o.amount)) return false;
              break;
            }
            case "leave": {
              const seat = s.seats.find((x) => x.playerId === o.player);
              const r = applyLeave(s, { playerId: o.player, transferId: `l${i}` }, now);
              next = r.next;
              if (r.result.creditsReturnedCents !== (seat?.balanceCents ?? 0)) return false;
              break;
            }
            case "advance": {
              const caller = { playerId: o.player, isAdmin: o.admin };
              const plan = advancePlan(s, caller);
              // A reveal closes its stage's betting first, a version of its own, as the service stores it:
              // the ops that follow may land in between.
              next = closeBetting(s, plan, now);
              if (next) break;
              const input: AdvanceInput =
                plan.kind === "DEAL"
                  ? dealInput(stagePanels(0, o.wins))
                  : plan.kind === "CLEAR"
                    ? { kind: "CLEAR" }
                    : {
                        kind: "REVEAL",
                        handOdds:
                          plan.to === "STATUS_RIVER"
                            ? riverPanels(o.winners)
                            : stagePanels(plan.to === "STATUS_FLOP" ? 1 : 2, o.wins),
                      };
              next = applyAdvance(s, plan, input, now);
              break;
            }
            case "deliver": {
              const keys = o.pick.map((k) => s.outbox[k % Math.max(1, s.outbox.length)]?.key ?? "none");
              delivered += sum(s.outbox.filter((c) => keys.includes(c.key)).map((c) => c.amountCents));
              next = markDelivered(s, keys, now);
              break;
            }
          }
        } catch (error) {
          // Refusals are typed domain errors; anything else (RangeError, a conservation failure) is a bug.
          if (!(error instanceof DomainError)) throw error;
        }
        if (next) {
          if (next.version !== prev.version + 1 || next.updatedAt !== now) return false;
          s = deepFreeze(next);
          steps++;
          if (s.finishedGame) {
            house += s.finishedGame.houseResultCents;
            if (s.finishedGame.payoutsCents > 0) paid++;
            if (s.finishedGame.outcome === "SETTLED") settled++;
            else voided++;
          }
        }
        // Independent count of where the money is.
        const seats = sum(s.seats.map((x) => x.balanceCents));
        const open = ["STATUS_HOLE", "STATUS_FLOP", "STATUS_TURN"].includes(s.gameState)
          ? sum(s.bets.map((b) => b.betAmountCents))
          : 0;
        const pending = sum(s.outbox.map((c) => c.amountCents));
        if (credited !== seats + open + pending + delivered + house) return false;
        const m = tableMoney(s);
        if (m.creditedCents !== credited || m.deliveredCents !== delivered || m.houseResultCents !== house)
          return false;
        if (!isConserved(m)) return false;
        // Seats: distinct ids 1..6, one per player, balances whole and never negative.
        const ids = s.seats.map((x) => x.seatId);
        if (new Set(ids).size !== ids.length || ids.some((id) => id < 1 || id > 6)) return false;
        if (new Set(s.seats.map((x) => x.playerId)).size !== s.seats.length) return false;
        if (s.seats.some((x) => !Number.isSafeInteger(x.balanceCents) || x.balanceCents < 0)) return false;
        if (new Set(s.outbox.map((c) => c.key)).size !== s.outbox.length) return false;
        if (s.outbox.some((c) => c.amountCents <= 0)) return false;
      }
      return true;
    }),
    { numRuns: 400 },
  );
  t.log({ steps, settled, voided, paid });
  // The generator must actually reach settlements and voids, or the property proves little.
  t.true(steps > 3_000, `only ${steps} stored steps`);
  t.true(settled > 50, `only ${settled} settled games`);
  t.true(voided > 10, `only ${voided} void games`);
  t.true(paid > 20, `only ${paid} games paid a winner`);
});
