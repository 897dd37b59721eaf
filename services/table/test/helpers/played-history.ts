// A table's history as the domain writes it, without a database: a player sits, then game after game
// is dealt, bet on, and played to the river (or voided by the player leaving mid-game and sitting
// again). One snapshot per stored change, a second apart, so that times and versions can be checked.
import { applyBet, applyLeave, applySit, type TableSnapshot } from "../../src/domain/index.js";
import { emptyTable } from "../../src/domain/snapshot.js";
import { advance, closed, deepFreeze, T0 } from "./fixtures.js";

export const PLAYER = "p1";
export const STAKE_CENTS = 100;

interface HistoryOptions {
  /** Time of the first change (epoch ms); each change is a second after the one before. */
  start?: number;
  /** Every n-th game ends void (0: none do). */
  voidEvery?: number;
}

export function playedHistory(tableId: number, games: number, options: HistoryOptions = {}): TableSnapshot[] {
  let now = options.start ?? T0;
  let snapshot = deepFreeze(emptyTable(tableId, now));
  const history: TableSnapshot[] = [];
  const keep = (next: TableSnapshot | null) => {
    if (!next) throw new Error(`table ${tableId}: a change at version ${snapshot.version + 1} was refused`);
    snapshot = deepFreeze(next);
    history.push(snapshot);
  };
  const tick = () => (now += 1_000);
  const sit = () =>
    keep(
      applySit(
        snapshot,
        {
          playerId: PLAYER,
          playerName: "Player One",
          avatarImageUrl: "",
          amountCents: 10_000_000,
          transferId: `sit-${snapshot.version}`,
        },
        tick(),
      ).next,
    );
  const bet = (handIndex: number) =>
    keep(
      applyBet(
        snapshot,
        { playerId: PLAYER, seatIndex: 1, handIndex, betAmountCents: STAKE_CENTS, betId: `bet-${snapshot.version}` },
        tick(),
      ).next,
    );
  // A reveal is two versions, as the service stores it: the stage's betting closed, then the cards.
  const reveal = () => {
    keep(closed(snapshot, tick()));
    keep(advance(snapshot, tick()));
  };
  sit();
  for (let game = 1; game <= games; game++) {
    keep(advance(snapshot, tick())); // hole
    bet(0);
    if (options.voidEvery && game % options.voidEvery === 0) {
      keep(applyLeave(snapshot, { playerId: PLAYER, transferId: `leave-${snapshot.version}` }, tick()).next);
      sit();
      continue;
    }
    reveal(); // flop
    bet(2);
    reveal(); // turn
    reveal(); // river: hand 0 wins
    keep(advance(snapshot, tick())); // cleared for the next game
  }
  return history;
}
