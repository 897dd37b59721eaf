import { Type } from "@sinclair/typebox";
import type { RequestHandler } from "express";
import { actingPlayerId } from "../auth/acting-player.js";
import { claimsOf } from "../auth/backend-identity.js";
import { identityOf } from "../auth/require-auth.js";
import { PlayerIdParam } from "../contract/players.js";
import { bodyValidator } from "../contract/validate.js";
import { DEADLINES_MS } from "../deadlines.js";
import { fromService } from "../http/grpc-errors.js";
import { requestIdOf } from "../http/request-logging.js";
import { toPlayerProfile } from "../players/to-api.js";
import type { WalletApi } from "../services.js";

const validatePath = bodyValidator(Type.Object({ playerId: PlayerIdParam }));

/**
 * GET /api/players/{playerId}: the caller's own profile (created with the welcome balance on first
 * read, names and role from the token), or, for an ADMIN, any existing player's (404 if none).
 */
export function playerRoute(wallet: WalletApi): RequestHandler {
  return async (req, res) => {
    const { playerId } = validatePath({ playerId: req.params.playerId });
    const identity = identityOf(res);
    const requestId = requestIdOf(req);
    const { profile } =
      actingPlayerId(identity, playerId) === identity.playerId
        ? await fromService(
            "wallet",
            wallet.getProfile({ claims: claimsOf(identity) }, { deadlineMs: DEADLINES_MS.moneyMove, requestId }),
          )
        : await fromService("wallet", wallet.getPlayer({ playerId }, { deadlineMs: DEADLINES_MS.read, requestId }));
    res.json(toPlayerProfile(profile));
  };
}
