// The ids of what a player asks for under an idempotency key: the same (player, key) always names the
// same transfer or bet, so a retry finds it, and no two pairs name the same one. A playerId may hold
// ":" and a key too, so the two cannot be joined with it; neither may hold a newline.
import { createHash } from "node:crypto";
import { TRANSFER_ID_PREFIX } from "@pokerodds/common/movement-keys";

const digestOf = (playerId: string, idempotencyKey: string): string =>
  createHash("sha256").update(`${playerId}\n${idempotencyKey}`).digest("hex").slice(0, 40);

export const transferIdOf = (playerId: string, idempotencyKey: string): string =>
  `${TRANSFER_ID_PREFIX}${digestOf(playerId, idempotencyKey)}`;

export const betIdOf = (playerId: string, idempotencyKey: string): string =>
  `bet-${digestOf(playerId, idempotencyKey)}`;
