// The player's moves at one table, each with its own Idempotency-Key; a refusal arrives as an
// ApiError carrying the API's message, or a NACK as a Refused naming the amounts.
import { acknowledged, api, ApiError, idempotencyKey, unwrap, type Schemas, type TableState } from "../../api/client";
import { keyedMoves, unconfirmedMessage } from "../../api/move-keys";
import type { TableFeed } from "../../api/table-events";
import { dealClientSeeds, isDealingState } from "../../fairness/client-seed";
import { formatCents, formatMoney, toCents } from "../../model/money";
import { explainRefusal } from "../../model/refusals";
import { isBettingStage, type AdvanceFrom, type BetAt } from "../../model/stages";
import type { AccountLink } from "./account";

/** A bet as the player saw it when placing it: the game, the stage and the odds on the screen. */
export interface BetMove {
  seatIndex: number;
  handIndex: number;
  betAmount: number;
  shown: BetAt & { odds: number };
}

export interface TableMoves {
  sit(buyInAmount: number): Promise<string>;
  topup(amount: number): Promise<string>;
  /** `shown`: the table as the player saw it on leaving, for what becomes of their open bets. */
  leave(shown: LeaveShown): Promise<string>;
  /** `shown`: the state on the screen, the only one the game then moves on from. */
  advance(shown: AdvanceFrom): Promise<void>;
  bet(move: BetMove): Promise<string>;
  /** The client seed this page sent with the deal of `gameId`, if it sent that deal. */
  clientSeedSent(gameId: string): string | null;
}

/** `account`: read again after each move that may have changed it, whatever its answer. */
export function tableMoves(tableId: number, feed: TableFeed, playerId: string, account: AccountLink): TableMoves {
  const path = { tableId };
  const header = (key: string) => ({ params: { path, header: { "Idempotency-Key": key } } });
  // Every move changes the table: read it at once rather than wait for the next poll or event.
  const after = <T>(result: T): T => {
    void feed.refresh();
    return result;
  };
  const keyed = keyedMoves(idempotencyKey, () => void feed.refresh());
  // Every move goes through keyed (the deal's key is unused: a deal names the state it moves on
  // from instead); a move the table did not confirm is told in the player's words.
  const send = async <T>(move: string, request: (key: string, resent: boolean) => Promise<T>): Promise<T> => {
    try {
      return await keyed(move, request);
    } catch (error) {
      const unconfirmed = unconfirmedMessage(error);
      throw unconfirmed === null ? error : new ApiError(unconfirmed, (error as ApiError).status);
    }
  };
  // A buy-in and a top-up come from the account and leaving pays into it.
  const fromAccount = <T>(move: Promise<T>): Promise<T> => move.finally(account.reread);
  const seeds = dealClientSeeds();
  return {
    async sit(buyInAmount) {
      const reply = await fromAccount(
        send(`sit ${buyInAmount}`, (key) =>
          acknowledged(
            api.POST("/api/tables/{tableId}/sit", { ...header(key), body: { buyInAmount } }),
            sitRefusal(buyInAmount),
          ),
        ),
      );
      return after(`Seated at seat ${reply.seatId} with ${formatMoney(reply.seatBalance)}.`);
    },
    async topup(amount) {
      const reply = await fromAccount(
        send(`topup ${amount}`, (key) =>
          acknowledged(
            api.POST("/api/tables/{tableId}/topup", { ...header(key), body: { amount } }),
            topUpRefusal(amount),
          ),
        ),
      );
      return after(
        `Topped up: seat ${formatMoney(reply.newSeatBalance)}, account ${formatMoney(reply.newAccountBalance)}.`,
      );
    },
    async leave(shown) {
      const reply = await fromAccount(
        send("leave", (key) => acknowledged(api.POST("/api/tables/{tableId}/leave", header(key)))),
      );
      const left = `You left the table: ${formatMoney(reply.creditsReturned)} returned, account ${formatMoney(reply.newAccountBalance)}.`;
      return after(`${left}${await openBetsAfterLeaving(tableId, playerId, shown)}`);
    },
    async advance(from) {
      const ticket = feed.ticket();
      // From the state shown only: a second click, a retry or another player's deal that came first
      // never moves the game twice (the answer is then the state now).
      // The deal mixes a fresh random client seed into the deck, after the house committed to its
      // seed (docs/provably-fair.md); any other advance takes none, nor an ADMIN's deal: an ADMIN is
      // the house, and the table refuses the house a client seed.
      const state = await send(`advance ${from.gameId} ${from.gameState}`, (_key, resent) => {
        const body =
          isDealingState(from.gameState) && !account.isAdmin()
            ? { from, clientSeed: seeds.forDeal(from.gameId, resent) }
            : { from };
        return unwrap(api.POST("/api/tables/{tableId}/advance", { params: { path }, body }));
      });
      feed.offer(state, ticket);
    },
    clientSeedSent: seeds.sentFor,
    async bet({ seatIndex, handIndex, betAmount, shown: { odds, ...at } }) {
      const move = `bet ${at.gameId} ${at.bettingStage} ${seatIndex} ${handIndex} ${betAmount}`;
      let confirms = false;
      // At the stage on the screen only: once another player deals the next cards, its odds are gone
      // and the table refuses the bet rather than take other odds.
      const reply = await send(move, (key, resent) => {
        confirms = resent;
        return acknowledged(
          api.POST("/api/tables/{tableId}/bet", { ...header(key), body: { seatIndex, handIndex, betAmount, at } }),
          betRefusal(betAmount),
        );
      });
      // A resent bet's answer is that of the bet not confirmed before: one bet, not a second.
      const once = confirms ? "The bet that was not confirmed is placed, once: " : "";
      const placed = `Bet ${formatMoney(betAmount)} on hand ${handIndex + 1} at odds ${odds.toFixed(1)}.`;
      return after(`${once}${placed} Seat balance ${formatMoney(reply.updatedSeatBalance)}.`);
    },
  };
}

// Each move's NACK with the amount it asked for and the balances its answer carries.
const sitRefusal =
  (amount: number) =>
  (reason: string, { seatId, seatBalance }: Schemas["SitResponse"]) =>
    // The sit's answer gives no account balance, and the one on the screen may be older than the
    // refusal (another tab's sit): none is quoted, and the screen's is read again (fromAccount).
    explainRefusal({ reason, move: "sit", amount, seatId, seatBalance });

const topUpRefusal =
  (amount: number) =>
  (reason: string, { newSeatBalance, newAccountBalance }: Schemas["TopUpResponse"]) =>
    explainRefusal({ reason, move: "topup", amount, seatBalance: newSeatBalance, accountBalance: newAccountBalance });

const betRefusal =
  (amount: number) =>
  (reason: string, { updatedSeatBalance }: Schemas["BetResponse"]) =>
    explainRefusal({ reason, move: "bet", amount, seatBalance: updatedSeatBalance });

export type LeaveShown = Pick<TableState, "gameId" | "bettingStage" | "bets" | "seats">;

/**
 * What became of the leaver's open bets: they stay in play while others are seated; the last
 * player's leave voids the game and refunds them (decisions.md), which shows as the game gone from
 * the table. Empty when the player had none.
 */
async function openBetsAfterLeaving(tableId: number, playerId: string, shown: LeaveShown): Promise<string> {
  if (!isBettingStage(shown.bettingStage)) return "";
  const open = shown.bets.filter((b) => b.playerId === playerId).reduce((sum, b) => sum + toCents(b.betAmount), 0);
  if (open === 0) return "";
  const stakes = formatCents(open);
  const now = await readBack(tableId);
  if (now !== undefined && now.gameId !== shown.gameId && shown.seats.length === 1) {
    return ` You were the last player, so the game was void: your open bets (${stakes}) were refunded, and the account includes them.`;
  }
  return ` Your open bets (${stakes}) stay in play: what they win goes to your account.`;
}

/** How long a confirmation waits to read the table back before it says less. */
const READ_BACK_MS = 5_000;

/** The table's state now, for a confirmation to say what the move did; undefined if it does not come in time. */
function readBack(tableId: number): Promise<TableState | undefined> {
  const request = { params: { path: { tableId } }, signal: AbortSignal.timeout(READ_BACK_MS) };
  return unwrap(api.GET("/api/tables/{tableId}/state", request)).catch(() => undefined);
}
