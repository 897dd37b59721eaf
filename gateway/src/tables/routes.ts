// The table session and game flow: sit, topup, bet and leave move money (each with an idempotency
// key); advance moves the game on; state reads it. Every input is checked here, before the table
// service is called, in the same order on every route: the path's tableId, the body, the
// Idempotency-Key, then the player acted for. The rules of the game are the service's.
import type { Request, Response } from "express";
import { actingPlayerId } from "../auth/acting-player.js";
import { callerFor } from "../auth/backend-identity.js";
import { identityOf } from "../auth/require-auth.js";
import { parseMoney } from "../contract/money.js";
import { bodyValidator, bodyValidatorWithDefaults } from "../contract/validate.js";
import { DEADLINES_MS } from "../deadlines.js";
import { callOptions, fromService } from "../http/backend-call.js";
import { idempotencyKeyOf } from "../http/idempotency-key.js";
import type { Handlers } from "../openapi/operation.js";
import type { TableApi } from "../services.js";
import type { tablesApi } from "./openapi.js";
import { BetRequest, NoBody, SitRequest, TopUpRequest } from "./schemas.js";
import { tableIdOf } from "./table-id.js";
import { toBetResponse, toLeaveResponse, toSitResponse, toTableGameState, toTopUpResponse } from "./to-api.js";

const validateSit = bodyValidator(SitRequest);
const validateTopUp = bodyValidator(TopUpRequest);
const validateBet = bodyValidator(BetRequest);
const validateNoBody = bodyValidatorWithDefaults(NoBody);

/**
 * What every money move sends besides its amount: the caller, acting for the body's playerId when it
 * names one (403 unless it is the caller or an ADMIN), the table and the idempotency key.
 */
function moneyMove(req: Request, res: Response, tableId: number, named: string | undefined) {
  const idempotencyKey = idempotencyKeyOf(req);
  const identity = identityOf(res);
  return { caller: callerFor(identity, actingPlayerId(identity, named)), tableId, idempotencyKey };
}

// The four money moves read alike on purpose: each validates its own body and names its own fields;
// moneyMove above holds what they share.
export function tableRoutes(table: TableApi): Handlers<typeof tablesApi> {
  const fromTable = <T>(call: Promise<T>) => fromService("table", call);
  return {
    sit: async (req, res) => {
      const tableId = tableIdOf(req);
      const body = validateSit(req.body);
      const request = { ...moneyMove(req, res, tableId, body.playerId), buyInCents: parseMoney(body.buyInAmount) };
      const response = await fromTable(table.sit(request, callOptions(req, DEADLINES_MS.moneyMove)));
      res.json(toSitResponse(response));
    },
    topUp: async (req, res) => {
      const tableId = tableIdOf(req);
      const body = validateTopUp(req.body);
      const request = { ...moneyMove(req, res, tableId, body.playerId), amountCents: parseMoney(body.amount) };
      const response = await fromTable(table.topUp(request, callOptions(req, DEADLINES_MS.moneyMove)));
      res.json(toTopUpResponse(response));
    },
    bet: async (req, res) => {
      const tableId = tableIdOf(req);
      const body = validateBet(req.body);
      const request = {
        ...moneyMove(req, res, tableId, body.playerId),
        seatIndex: body.seatIndex,
        handIndex: body.handIndex,
        betAmountCents: parseMoney(body.betAmount),
      };
      const response = await fromTable(table.bet(request, callOptions(req, DEADLINES_MS.moneyMove)));
      res.json(toBetResponse(response));
    },
    /** Leave acts for the token's subject only. */
    leave: async (req, res) => {
      const tableId = tableIdOf(req);
      validateNoBody(req.body);
      const request = moneyMove(req, res, tableId, undefined);
      const response = await fromTable(table.leave(request, callOptions(req, DEADLINES_MS.moneyMove)));
      res.json(toLeaveResponse(response));
    },
    /** Advance is the token's subject's (the service allows players seated there, and ADMINs). */
    advance: async (req, res) => {
      const tableId = tableIdOf(req);
      validateNoBody(req.body);
      const request = { caller: callerFor(identityOf(res)), tableId };
      const response = await fromTable(table.advance(request, callOptions(req, DEADLINES_MS.advance)));
      res.json(toTableGameState(response.state));
    },
    getTableState: async (req, res) => {
      const request = { caller: callerFor(identityOf(res)), tableId: tableIdOf(req) };
      const response = await fromTable(table.getState(request, callOptions(req, DEADLINES_MS.read)));
      res.json(toTableGameState(response.state));
    },
  };
}
