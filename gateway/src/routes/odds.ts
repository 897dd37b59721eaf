import type { RequestHandler } from "express";
import { BulkRequest, DealRequest } from "../contract/odds.js";
import { bodyValidatorWithDefaults } from "../contract/validate.js";
import { fromService } from "../http/grpc-errors.js";
import { requestIdOf } from "../http/request-logging.js";
import { toBulkResponse, toDealResult } from "../odds/to-api.js";
import type { OddsApi } from "../services.js";

const DEAL_DEADLINE_MS = 5_000;
const BULK_DEADLINE_MS = 30_000;

const validateDeal = bodyValidatorWithDefaults(DealRequest);
const validateBulk = bodyValidatorWithDefaults(BulkRequest);

/** POST /api/deal: a stand-alone deal with pre-flop odds at the service's target RTP. */
export function dealRoute(odds: OddsApi): RequestHandler {
  return async (req, res) => {
    const { numberOfHands } = validateDeal(req.body);
    const options = { deadlineMs: DEAL_DEADLINE_MS, requestId: requestIdOf(req) };
    const response = await fromService("odds", odds.deal({ numberOfHands }, options));
    res.json(toDealResult(response));
  };
}

/** POST /api/games/bulk: whole pre-computed games. */
export function bulkRoute(odds: OddsApi): RequestHandler {
  return async (req, res) => {
    const request = validateBulk(req.body);
    const options = { deadlineMs: BULK_DEADLINE_MS, requestId: requestIdOf(req) };
    const response = await fromService("odds", odds.generateBulk(request, options));
    res.json(toBulkResponse(response, request));
  };
}
