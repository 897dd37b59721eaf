import { Type } from "@sinclair/typebox";
import { actingPlayerId, callerFor, claimsOf, identityOf } from "../auth/caller.js";
import { bodyValidator } from "@pokerodds/api/validate";
import { DEADLINES_MS, callOptions, fromService } from "../http/backend-call.js";
import type { Handlers } from "../http/mount.js";
import type { TableApi, WalletApi } from "../services.js";
import { type playersApi, PlayerIdParam } from "@pokerodds/api/players";
import { toPlayerProfile, toPlayerSeats } from "./to-api.js";

const validatePath = bodyValidator(Type.Object({ playerId: PlayerIdParam }));

export function playerRoutes(wallet: WalletApi, table: TableApi): Handlers<typeof playersApi> {
  return {
    /**
     * GET /api/players/{playerId}: the caller's own profile (created with the welcome balance on first
     * read, names and role from the token), or, for an ADMIN, any existing player's (404 if none).
     */
    getPlayer: async (req, res) => {
      const { playerId } = validatePath({ playerId: req.params.playerId });
      const identity = identityOf(res);
      const { profile } =
        actingPlayerId(identity, playerId) === identity.playerId
          ? await fromService(
              "wallet",
              wallet.getProfile({ claims: claimsOf(identity) }, callOptions(req, DEADLINES_MS.moneyMove)),
            )
          : await fromService("wallet", wallet.getPlayer({ playerId }, callOptions(req, DEADLINES_MS.read)));
      res.json(toPlayerProfile(profile));
    },
    /** GET /api/players/{playerId}/seats: where the player's chips are, for the player or an ADMIN. */
    getPlayerSeats: async (req, res) => {
      const { playerId } = validatePath({ playerId: req.params.playerId });
      const identity = identityOf(res);
      const caller = callerFor(identity, actingPlayerId(identity, playerId));
      const { seats } = await fromService("table", table.listSeats({ caller }, callOptions(req, DEADLINES_MS.read)));
      res.json(toPlayerSeats(seats));
    },
  };
}
