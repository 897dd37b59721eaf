import { apiPart } from "../openapi/operation.js";
import { PlayerIdParam, PlayerProfile } from "./schemas.js";

const PLAYER_ID = { name: "playerId", in: "path", required: true, schema: PlayerIdParam };

export const playersApi = apiPart(
  "players",
  { PlayerProfile },
  {
    getPlayer: {
      method: "get",
      path: "/api/players/{playerId}",
      summary: "Profile; the first read creates the player and a 1,000 welcome balance",
      parameters: [PLAYER_ID],
      ok: "PlayerProfile",
      errors: [400, 403, 404, 503],
    },
  },
);
