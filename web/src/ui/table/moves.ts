// The player's moves at one table, each with its own Idempotency-Key; a refusal (an error or a
// NACK) arrives as an ApiError carrying the API's message.
import { acknowledged, api, idempotencyKey, unwrap } from "../../api/client";
import type { TableFeed } from "../../api/table-events";
import { formatMoney } from "../../model/money";

export interface TableMoves {
  sit(buyInAmount: number): Promise<string>;
  topup(amount: number): Promise<string>;
  leave(): Promise<string>;
  advance(): Promise<void>;
  bet(seatIndex: number, handIndex: number, betAmount: number, odds: number): Promise<string>;
}

export function tableMoves(tableId: number, feed: TableFeed): TableMoves {
  const path = { tableId };
  const keyed = () => ({ params: { path, header: { "Idempotency-Key": idempotencyKey() } } });
  // Every move changes the table: read it at once rather than wait for the next poll or event.
  const after = <T>(result: T): T => {
    void feed.refresh();
    return result;
  };
  return {
    async sit(buyInAmount) {
      const reply = await acknowledged(api.POST("/api/tables/{tableId}/sit", { ...keyed(), body: { buyInAmount } }));
      return after(`Seated at seat ${reply.seatId} with ${formatMoney(reply.seatBalance)}.`);
    },
    async topup(amount) {
      const reply = await acknowledged(api.POST("/api/tables/{tableId}/topup", { ...keyed(), body: { amount } }));
      return after(
        `Topped up: seat ${formatMoney(reply.newSeatBalance)}, account ${formatMoney(reply.newAccountBalance)}.`,
      );
    },
    async leave() {
      const reply = await acknowledged(api.POST("/api/tables/{tableId}/leave", keyed()));
      return after(
        `You left the table: ${formatMoney(reply.creditsReturned)} returned, account ${formatMoney(reply.newAccountBalance)}.`,
      );
    },
    async advance() {
      const ticket = feed.ticket();
      feed.offer(await unwrap(api.POST("/api/tables/{tableId}/advance", { params: { path } })), ticket);
    },
    async bet(seatIndex, handIndex, betAmount, odds) {
      const reply = await acknowledged(
        api.POST("/api/tables/{tableId}/bet", { ...keyed(), body: { seatIndex, handIndex, betAmount } }),
      );
      return after(
        `Bet ${formatMoney(betAmount)} on hand ${handIndex + 1} at odds ${odds.toFixed(1)}. Seat balance ${formatMoney(reply.updatedSeatBalance)}.`,
      );
    },
  };
}
