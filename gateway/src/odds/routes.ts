import { bodyValidatorWithDefaults } from "@pokerodds/api/validate";
import { callOptions, fromService } from "../http/backend-call.js";
import type { Handlers } from "../http/mount.js";
import type { OddsApi } from "../services.js";
import { type oddsApi, BulkRequest, DealRequest } from "@pokerodds/api/odds";
import { toBulkResponse, toDealResult } from "./to-api.js";

const DEAL_DEADLINE_MS = 5_000;
const BULK_DEADLINE_MS = 30_000;

const validateDeal = bodyValidatorWithDefaults(DealRequest);
const validateBulk = bodyValidatorWithDefaults(BulkRequest);

export function oddsRoutes(odds: OddsApi): Handlers<typeof oddsApi> {
  return {
    /** POST /api/deal: a stand-alone deal with pre-flop odds at the service's target RTP. */
    deal: async (req, res) => {
      const { numberOfHands } = validateDeal(req.body);
      const response = await fromService(
        "odds",
        odds.deal({ numberOfHands, gameId: "" }, callOptions(req, DEAL_DEADLINE_MS)),
      );
      res.json(toDealResult(response));
    },
    /** POST /api/games/bulk: whole pre-computed games. */
    generateBulk: async (req, res) => {
      const request = validateBulk(req.body);
      const response = await fromService("odds", odds.generateBulk(request, callOptions(req, BULK_DEADLINE_MS)));
      res.json(toBulkResponse(response, request));
    },
  };
}
