// The table session and game flow: sit, topup, bet and leave move money (each with an idempotency
// key); advance moves the game on; state reads it. Every input is checked here, before the table
// service is called; the rules of the game are the service's.
import type { CallOptions } from "@pokerodds/common";
import type { Request, RequestHandler, Response } from "express";
import { actingPlayerId } from "../auth/acting-player.js";
import { callerFor } from "../auth/backend-identity.js";
import { identityOf } from "../auth/require-auth.js";
import { BetRequest, NoBody, SitRequest, TopUpRequest } from "../contract/tables.js";
import { bodyValidator, bodyValidatorWithDefaults } from "../contract/validate.js";
import { DEADLINES_MS } from "../deadlines.js";
import { fromService } from "../http/grpc-errors.js";
import { idempotencyKeyOf } from "../http/idempotency-key.js";
import { requestIdOf } from "../http/request-logging.js";
import { parseMoney } from "../money.js";
import type { TableApi } from "../services.js";
import { tableIdOf } from "../tables/table-id.js";
import { toBetResponse, toLeaveResponse, toSitResponse, toTableGameState, toTopUpResponse } from "../tables/to-api.js";

const validateSit = bodyValidator(SitRequest);
const validateTopUp = bodyValidator(TopUpRequest);
const validateBet = bodyValidator(BetRequest);
const validateNoBody = bodyValidatorWithDefaults(NoBody);

const options = (req: Request, deadlineMs: number): CallOptions => ({ deadlineMs, requestId: requestIdOf(req) });

/** The caller, acting for the body's playerId when it names one (403 unless it is the caller or an ADMIN). */
function actingCaller(res: Response, named: string | undefined) {
  const identity = identityOf(res);
  return callerFor(identity, actingPlayerId(identity, named));
}

export function sitRoute(table: TableApi): RequestHandler {
  return async (req, res) => {
    const tableId = tableIdOf(req);
    const body = validateSit(req.body);
    const idempotencyKey = idempotencyKeyOf(req);
    const request = {
      caller: actingCaller(res, body.playerId),
      tableId,
      buyInCents: parseMoney(body.buyInAmount),
      idempotencyKey,
    };
    const response = await fromService("table", table.sit(request, options(req, DEADLINES_MS.moneyMove)));
    res.json(toSitResponse(response));
  };
}

export function topUpRoute(table: TableApi): RequestHandler {
  return async (req, res) => {
    const tableId = tableIdOf(req);
    const body = validateTopUp(req.body);
    const idempotencyKey = idempotencyKeyOf(req);
    const request = {
      caller: actingCaller(res, body.playerId),
      tableId,
      amountCents: parseMoney(body.amount),
      idempotencyKey,
    };
    const response = await fromService("table", table.topUp(request, options(req, DEADLINES_MS.moneyMove)));
    res.json(toTopUpResponse(response));
  };
}

export function betRoute(table: TableApi): RequestHandler {
  return async (req, res) => {
    const tableId = tableIdOf(req);
    const body = validateBet(req.body);
    const idempotencyKey = idempotencyKeyOf(req);
    const request = {
      caller: actingCaller(res, body.playerId),
      tableId,
      seatIndex: body.seatIndex,
      handIndex: body.handIndex,
      betAmountCents: parseMoney(body.betAmount),
      idempotencyKey,
    };
    const response = await fromService("table", table.bet(request, options(req, DEADLINES_MS.moneyMove)));
    res.json(toBetResponse(response));
  };
}

/** Leave acts for the token's subject only. */
export function leaveRoute(table: TableApi): RequestHandler {
  return async (req, res) => {
    const tableId = tableIdOf(req);
    validateNoBody(req.body);
    const request = { caller: callerFor(identityOf(res)), tableId, idempotencyKey: idempotencyKeyOf(req) };
    const response = await fromService("table", table.leave(request, options(req, DEADLINES_MS.moneyMove)));
    res.json(toLeaveResponse(response));
  };
}

/** Advance is the token's subject's (the service allows players seated there, and ADMINs). */
export function advanceRoute(table: TableApi): RequestHandler {
  return async (req, res) => {
    const tableId = tableIdOf(req);
    validateNoBody(req.body);
    const request = { caller: callerFor(identityOf(res)), tableId };
    const response = await fromService("table", table.advance(request, options(req, DEADLINES_MS.advance)));
    res.json(toTableGameState(response.state));
  };
}

export function stateRoute(table: TableApi): RequestHandler {
  return async (req, res) => {
    const request = { caller: callerFor(identityOf(res)), tableId: tableIdOf(req) };
    const response = await fromService("table", table.getState(request, options(req, DEADLINES_MS.read)));
    res.json(toTableGameState(response.state));
  };
}
