import { bodyValidatorWithDefaults } from "@pokerodds/api/validate";
import { callOptions, fromService } from "../http/backend-call.js";
import type { Handlers } from "../http/mount.js";
import type { OddsApi } from "../services.js";
import { type oddsApi, BulkRequest, DealRequest } from "@pokerodds/api/odds";
import { requestIdOf } from "../http/request.js";
import { bulkResponseJson, toDealResult } from "./to-api.js";

const DEAL_DEADLINE_MS = 5_000;
const BULK_DEADLINE_MS = 30_000;

const validateDeal = bodyValidatorWithDefaults(DealRequest);
const validateBulk = bodyValidatorWithDefaults(BulkRequest);

export function oddsRoutes(odds: OddsApi): Handlers<typeof oddsApi> {
  return {
    /** POST /api/deal: a stand-alone deal with pre-flop odds at the service's target RTP. */
    deal: async (req, res) => {
      const { numberOfHands } = validateDeal(req.body);
      const response = await fromService("odds", odds.deal({ numberOfHands }, callOptions(req, DEAL_DEADLINE_MS)));
      res.json(toDealResult(response));
    },
    /** POST /api/games/bulk: whole pre-computed games, gathered as the odds service streams them. */
    generateBulk: async (req, res) => {
      const request = validateBulk(req.body);
      // A caller that goes away does not cancel the batch: a cancel is an HTTP/2 RST_STREAM on the
      // gateway's one connection to the odds service, and Node closes a connection that gets more
      // than about 33 a second (its rapid-reset protection), failing every call on it. The batch
      // runs out, holding its heavy-route slot until then (heavyCap), so leaving frees nothing early.
      const pieces = odds.generateBulk(request, { requestId: requestIdOf(req), deadlineMs: BULK_DEADLINE_MS });
      const body = await fromService("odds", bulkResponseJson(pieces, request));
      res.type("application/json").send(body);
    },
  };
}
