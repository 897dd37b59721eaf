// The player's moves at one table, each with its own Idempotency-Key; a refusal arrives as an
// ApiError carrying the API's message, or a NACK as a Refused naming the amounts.
import { API_HEADERS } from "@pokerodds/common/http-headers";
import {
  acknowledged,
  api,
  ApiError,
  idempotencyKey,
  unwrap,
  unwrapState,
  type Schemas,
  type TableState,
} from "../../api/client";
import { keyedMoves, unconfirmedMessage } from "../../api/move-keys";
import type { TableFeed } from "../../api/table-events";
import { dealClientSeeds, isDealingState, placeAtTable } from "../../fairness/client-seed";
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
  /**
   * `shown`: the state on the screen, the only one the game then moves on from; `commitment`: the
   * seed commitment it shows, which a deal's client seed is chosen after.
   */
  advance(shown: AdvanceFrom, commitment: string | null): Promise<void>;
  bet(move: BetMove): Promise<string>;
  /** The client seed this page sent with the deal of `gameId`, if it sent that deal. */
  clientSeedSent(gameId: string): string | null;
}

/** `account`: read again after each move that may have changed it, whatever its answer. */
export function tableMoves(tableId: number, feed: TableFeed, playerId: string, account: AccountLink): TableMoves {
  const path = { tableId };
  const header = (key: string) => ({ params: { path, header: { [API_HEADERS.idempotencyKey]: key } } });
  // Every move changes the table: read it at once rather than wait for the next poll or event.
  const after = <T>(result: T): T => {
    void feed.refresh();
    return result;
  };
  const { send, seatChanged } = movesSender(`${playerId} ${tableId}`, () => void feed.refresh());
  // A buy-in and a top-up come from the account and leaving pays into it.
  const fromAccount = <T>(move: Promise<T>): Promise<T> => move.finally(account.reread);
  const seeds = dealClientSeeds(placeAtTable(playerId, tableId));
  return {
    async sit(buyInAmount) {
      const { reply, resent } = await fromAccount(
        send(`sit ${buyInAmount}`, (key) =>
          acknowledged(
            api.POST("/api/tables/{tableId}/sit", { ...header(key), body: { buyInAmount } }),
            sitRefusal(buyInAmount),
          ),
        ),
      );
      seatChanged();
      const seated = `seat ${reply.seatId} with ${formatMoney(reply.seatBalance)}.`;
      return after(resent ? `${once("sit")}${seated}` : `Seated at ${seated}`);
    },
    async topup(amount) {
      const { reply, resent } = await fromAccount(
        send(`topup ${amount}`, (key) =>
          acknowledged(
            api.POST("/api/tables/{tableId}/topup", { ...header(key), body: { amount } }),
            topUpRefusal(amount),
          ),
        ),
      );
      const balances = `seat ${formatMoney(reply.newSeatBalance)}, account ${formatMoney(reply.newAccountBalance)}`;
      return after(resent ? `${once("top-up")}it left ${balances}.` : `Topped up: ${balances}.`);
    },
    async leave(shown) {
      const { reply, resent } = await fromAccount(
        send("leave", (key) => acknowledged(api.POST("/api/tables/{tableId}/leave", header(key)))),
      );
      seatChanged();
      const returned = `${formatMoney(reply.creditsReturned)} returned, account ${formatMoney(reply.newAccountBalance)}.`;
      const left = resent ? `${once("leave")}${returned}` : `You left the table: ${returned}`;
      return after(`${left}${await openBetsAfterLeaving(tableId, playerId, shown)}`);
    },
    async advance(from, commitment) {
      // From the state shown only: a second click, a retry or another player's deal that came first
      // never moves the game twice (the answer is then the state now).
      // The deal mixes a random client seed into the deck, after the house committed to its seed
      // (docs/provably-fair.md), the same one for every deal of the game under the commitment shown
      // (client-seed.ts); any other advance takes none, nor an ADMIN's deal: an ADMIN is the house,
      // and the table refuses the house a client seed.
      const { reply: answer } = await send(`advance ${from.gameId} ${from.gameState}`, () => {
        const body =
          isDealingState(from.gameState) && !account.isAdmin()
            ? { from, clientSeed: seeds.forDeal(from.gameId, commitment) }
            : { from };
        return unwrapState(api.POST("/api/tables/{tableId}/advance", { params: { path }, body }));
      });
      feed.offer(answer);
    },
    clientSeedSent: seeds.sentFor,
    async bet({ seatIndex, handIndex, betAmount, shown: { odds, ...at } }) {
      const move = `bet ${at.gameId} ${at.bettingStage} ${seatIndex} ${handIndex} ${betAmount}`;
      // At the stage on the screen only: once another player deals the next cards, its odds are gone
      // and the table refuses the bet rather than take other odds.
      const { reply, resent } = await send(move, (key) =>
        acknowledged(
          api.POST("/api/tables/{tableId}/bet", { ...header(key), body: { seatIndex, handIndex, betAmount, at } }),
          betRefusal(betAmount),
        ),
      );
      const placed = `Bet ${formatMoney(betAmount)} on hand ${handIndex + 1} at odds ${odds.toFixed(1)}.`;
      return after(`${resent ? once("bet") : ""}${placed} Seat balance ${formatMoney(reply.updatedSeatBalance)}.`);
    },
  };
}

/**
 * Sends a player's moves at a table (`place`) under their keys (keyedMoves; the deal's key is unused:
 * a deal names the state it moves on from instead); a move the table did not confirm is told in the
 * player's words. The answer says whether it confirms a move sent before (resent), not a new one.
 */
function movesSender(place: string, refresh: () => void) {
  const keys = keyedMoves(place, idempotencyKey, refresh);
  const send = async <T>(
    move: string,
    request: (key: string, resent: boolean) => Promise<T>,
  ): Promise<{ reply: T; resent: boolean }> => {
    let resent = false;
    try {
      const reply = await keys.send(move, (key, again) => {
        resent = again;
        return request(key, again);
      });
      return { reply, resent };
    } catch (error) {
      const unconfirmed = unconfirmedMessage(error);
      throw unconfirmed === null ? error : new ApiError(unconfirmed, (error as ApiError).status);
    }
  };
  // A seat taken or left: a sit, top-up or leave not confirmed before was of the seat before.
  const seatChanged = () => keys.forget((move) => /^(sit|topup|leave)\b/.test(move));
  return { send, seatChanged };
}

/**
 * The start of a resent move's confirmation: its answer is that of the move not confirmed before,
 * whenever that was made, with the balances it left then (the table shows them now): one move, not a
 * second, so a player who meant another does it again.
 */
const once = (move: "sit" | "top-up" | "leave" | "bet") =>
  `The ${move} that was not confirmed is made, once (this was not a second one): `;

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
