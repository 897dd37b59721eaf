import { Type } from "@sinclair/typebox";
import { actingPlayerId } from "../auth/acting-player.js";
import { claimsOf } from "../auth/backend-identity.js";
import { identityOf } from "../auth/require-auth.js";
import { bodyValidator } from "../contract/validate.js";
import { DEADLINES_MS } from "../deadlines.js";
import { callOptions, fromService } from "../http/backend-call.js";
import type { Handlers } from "../openapi/operation.js";
import type { WalletApi } from "../services.js";
import type { playersApi } from "./openapi.js";
import { PlayerIdParam } from "./schemas.js";
import { toPlayerProfile } from "./to-api.js";

const validatePath = bodyValidator(Type.Object({ playerId: PlayerIdParam }));

export function playerRoutes(wallet: WalletApi): Handlers<typeof playersApi> {
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
  };
}
