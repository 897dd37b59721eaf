import test from "ava";
import fc from "fast-check";
import { parseCard } from "@pokerodds/common/poker/cards";
import { oddsTenths } from "@pokerodds/common/poker/pricing";
import { type Bet, type GameOutcome, playGame } from "../src/game.js";
import { addGame, emptyRtpTotals, rakeWithinBound, rtpFigures } from "../src/rtp.js";

const settings = (numberOfHands: number) => ({ numberOfHands, targetRtp: 0.97 });
const cards = (codes: string) => codes.split(" ").map(parseCard);

/**
 * A full deck dealing `holes` (hand h's cards first round then second, as dealt), then `board`,
 * then the remaining cards in order.
 */
function deckFor(holes: number[][], board: number[]): number[] {
  const top = [...holes.map((h) => h[0]!), ...holes.map((h) => h[1]!), ...board];
  return [...top, ...Array.from({ length: 52 }, (_, c) => c).filter((c) => !top.includes(c))];
}

test("over every river, a turn bet's mean return is exactly its odds x expected share", (t) => {
  fc.assert(
    fc.property(
      fc.integer({ min: 2, max: 6 }),
      fc.uniqueArray(fc.integer({ min: 0, max: 51 }), { minLength: 16, maxLength: 16 }),
      (n, picked) => {
        const holes = Array.from({ length: n }, (_, i) => picked.slice(2 * i, 2 * i + 2));
        const turnBoard = picked.slice(12, 16);
        const rivers = Array.from({ length: 52 }, (_, c) => c).filter(
          (c) => !holes.flat().includes(c) && !turnBoard.includes(c),
        );
        const returned = new Map<number, number>();
        let turnBets: Bet[] = [];
        for (const river of rivers) {
          const game = playGame(deckFor(holes, [...turnBoard, river]), settings(n));
          turnBets = game.bets.filter((b) => b.stage === 2);
          for (const bet of turnBets) returned.set(bet.hand, (returned.get(bet.hand) ?? 0) + bet.returned);
        }
        for (const bet of turnBets) {
          const mean = returned.get(bet.hand)! / rivers.length;
          t.true(Math.abs(mean - (bet.oddsTenths / 10) * bet.share) < 1e-9, `hand ${bet.hand}`);
        }
      },
    ),
    { numRuns: 15 },
  );
});

test("bets follow the table's rules: only hands that can win alone, at the panel's odds", (t) => {
  // Hands 0 and 1 both hold Broadway from the flop on; at the turn neither can win alone on any
  // river (no flush is possible any more), so neither takes a bet, and hand 2 is dead.
  const holes = [cards("Ah Kd"), cards("As Kc"), cards("2c 3c")];
  const game = playGame(deckFor(holes, cards("Qh Jh Ts 9d 4c")), settings(3));
  const turn = game.bets.filter((b) => b.stage === 2);
  t.deepEqual(turn, []);
  // At the river hands 0 and 1 tie: every earlier bet on them was paid odds / 2.
  t.deepEqual(game.winners, [0, 1]);
  for (const bet of game.bets) {
    t.true(bet.win > 0);
    // Priced from the dead-heat share: the expected return is the target up to the rounding.
    t.true(rakeWithinBound(bet, 0.97));
    const expected = bet.hand === 2 ? 0 : bet.oddsTenths / 10 / 2;
    t.true(Math.abs(bet.returned - expected) < 1e-12, JSON.stringify(bet));
  }
  // At the flop only hand 0 can win alone (two running hearts): a long shot that mostly ties.
  const flop = game.bets.filter((b) => b.stage === 1);
  t.deepEqual(
    flop.map((b) => b.hand),
    [0],
  );
  t.true(flop[0]!.share > 10 * flop[0]!.win);
  // Hearts on the turn and river win alone: C(10, 2) = 45 of C(43, 2) = 903 boards. Of the others
  // 854 tie hands 0 and 1, and 4 (ace and king on the board: Broadway for all) tie all three:
  // share (45 + 854 / 2 + 4 / 3) / 903 = 0.5242, odds 0.97 / 0.5242 = 1.8505, shown 1.9. From the
  // win alone (4.98 %) they were 19.5.
  t.is(flop[0]!.oddsTenths, 19);
  const share = { numerator: 6 * 45 + 3 * 854 + 2 * 4, denominator: 6 * 903 };
  t.true(Math.abs(flop[0]!.share - share.numerator / share.denominator) < 1e-12);
  t.is(flop[0]!.oddsTenths, oddsTenths(share, 0.97));
  t.deepEqual(game.hands, ["AhKd", "AsKc", "2c3c"]);
});

test("RTP totals: the per-stage and overall figures add up from the bets", (t) => {
  const bet = (stage: number, oddsTenths: number, win: number, share: number, returned: number): Bet => ({
    stage,
    hand: 0,
    oddsTenths,
    win,
    share,
    returned,
    centsKept: 0,
  });
  const game = (bets: Bet[], winners: number[]): GameOutcome => ({
    hands: [],
    board: [],
    bets,
    winners,
    turnShares: [0.5],
    mismatches: 0,
  });
  const totals = emptyRtpTotals();
  addGame(totals, game([bet(0, 19, 0.5, 0.5, 1.9), bet(1, 97, 0.1, 0.15, 0)], [0]), 0.97);
  addGame(totals, game([bet(0, 19, 0.5, 0.5, 0)], [1]), 0.97);
  const { stages, overall } = rtpFigures(totals);
  t.is(stages.hole!.bets, 2);
  t.true(Math.abs(stages.hole!.realized.value - 0.95) < 1e-12);
  t.true(Math.abs(stages.hole!.theoretical.value - 0.95) < 1e-12);
  t.true(Math.abs(stages.flop!.theoretical.value - 1.455) < 1e-12);
  t.true(Math.abs(stages.flop!.tieReturn - 0.485) < 1e-12);
  t.true(Math.abs(stages.flop!.rake - (0.97 - 1.455)) < 1e-12);
  t.true(Math.abs(stages.hole!.rake - 0.02) < 1e-12);
  t.is(overall.bets, 3);
  t.true(Math.abs(overall.realized.value - 1.9 / 3) < 1e-12);
  t.is(overall.favourableBetShare, 1 / 3);
  // The flop bet (odds 9.7 on a share of 0.15) is out of the rounding bound and favours the player beyond it.
  t.is(stages.flop!.rakeOutOfBound, 1);
  t.is(stages.flop!.favourableBeyondRounding, 1);
  t.is(stages.hole!.rakeOutOfBound, 0);
  t.true(Math.abs(overall.maxExpected - 1.455) < 1e-12);
});

test("leaving an empty table when behind: hole bets worth less than their stake at the turn come back whole", (t) => {
  const holeBet = (hand: number, oddsTenths: number, returned: number): Bet => ({
    stage: 0,
    hand,
    oddsTenths,
    win: 0.3,
    share: 0.3,
    returned,
    centsKept: 0,
  });
  const game = (bets: Bet[], turnShares: number[]): GameOutcome => ({
    hands: [],
    board: [],
    bets,
    winners: [],
    turnShares,
    mismatches: 0,
  });
  const totals = emptyRtpTotals();
  // Hand 0 at 3.2 is worth 3.2 x 0.1 = 0.32 at the turn, hand 1 at 1.4 is worth 1.4 x 0.9 = 1.26:
  // together 1.58 of 2 staked, so the player leaves and both come back, though hand 1 went on to
  // win 1.4. Alone, hand 0 is left (1 back) and hand 1 kept (1.4).
  addGame(totals, game([holeBet(0, 32, 0), holeBet(1, 14, 1.4)], [0.1, 0.9]), 0.97);
  // Worth 3.2 x 0.5 = 1.6 at the turn: kept either way, and lost at the river.
  addGame(totals, game([holeBet(0, 32, 0)], [0.5]), 0.97);
  // Flop and turn bets are not part of it.
  addGame(totals, game([{ ...holeBet(0, 50, 0), stage: 1 }], [0]), 0.97);
  const { everyHand, oneHand } = totals.leaveWhenBehind;
  t.deepEqual([everyHand.n, everyHand.x, everyHand.y], [2, 3, 2]);
  t.deepEqual([oneHand.n, oneHand.x, oneHand.y], [2, 3, 2.4]);
});

test("the rake bound accepts the real rounding and refuses a coarser one", (t) => {
  fc.assert(
    fc.property(
      fc
        .integer({ min: 1, max: 1_712_304 })
        .chain((denominator) =>
          fc.record({ denominator: fc.constant(denominator), numerator: fc.integer({ min: 1, max: denominator }) }),
        ),
      (fraction) => {
        const share = fraction.numerator / fraction.denominator;
        const base = { stage: 0, hand: 0, win: share / 2, share, returned: 0, centsKept: 0 };
        t.true(rakeWithinBound({ ...base, oddsTenths: oddsTenths(fraction, 0.97) }, 0.97));
        // Odds rounded down to a whole number take up to a whole unit x share: out of bound unless exact.
        const whole = Math.floor(0.97 / share) * 10;
        if (Math.abs(0.97 / share - whole / 10) > 0.06) t.false(rakeWithinBound({ ...base, oddsTenths: whole }, 0.97));
      },
    ),
  );
});
