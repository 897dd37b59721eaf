// The table session and game flow: sit, topup, bet and leave move money (each with an idempotency
// key); advance moves the game on; state reads it; games/{gameId} reads a finished game's record. Every input is checked here, before the table
// service is called, in the same order on every route: the path's tableId, the body, the
// Idempotency-Key, then the player acted for. The rules of the game are the service's.
import { gameStateOfName } from "@pokerodds/common/game-state-names";
import { CANONICAL_ID } from "@pokerodds/api/fields";
import { GAME_ID_PATTERN, GAME_ID_RULE, INT32_MAX } from "@pokerodds/common/limits";
import { noSuchTable } from "@pokerodds/common/table-ids";
import type { Request, Response } from "express";
import {
  badRequest,
  HttpError,
  internalError,
  MOVE_OUTCOME_UNKNOWN,
  notFound,
  RETRY_AFTER_SECONDS,
} from "../http/errors.js";
import { GAME_RECORD_READS, type SpendHistoryReads } from "../http/edge.js";
import { actingPlayerId, callerFor, identityOf } from "../auth/caller.js";
import { parseMoney } from "@pokerodds/api/money";
import { bodyValidator, bodyValidatorWithDefaults, optionalBodyValidator } from "@pokerodds/api/validate";
import { DEADLINES_MS, callOptions, fromService } from "../http/backend-call.js";
import { idempotencyKeyOf } from "../http/request.js";
import { API_HEADERS } from "@pokerodds/common/http-headers";
import type { Handlers } from "../http/mount.js";
import type { TableApi } from "../services.js";
import { type tablesApi, AdvanceRequest, BetRequest, NoBody, SitRequest, TopUpRequest } from "@pokerodds/api/tables";
import type { TableState } from "@pokerodds/common/generated/pokerodds/table/v1/table";
import {
  toBetResponse,
  toLeaveResponse,
  toSitResponse,
  toTableGameState,
  toTableVersion,
  toTopUpResponse,
} from "./to-api.js";
import { toGameRecord } from "./game-record.js";

/** The path's tableId: 400 unless an integer >= 1 in plain digits; 404 above what any table can have. */
export function tableIdOf(req: Request): number {
  const text = String(req.params.tableId);
  if (!CANONICAL_ID.test(text)) {
    throw badRequest("tableId must be an integer of at least 1, in plain decimal digits");
  }
  const tableId = Number(text);
  if (tableId > INT32_MAX) throw notFound(noSuchTable(text));
  return tableId;
}

/**
 * The path's gameId, checked for its form only (the table service knows which games it played).
 * Text of another form names no game: 404, as for a game the table never had, without asking it.
 */
function gameIdOf(req: Request): string {
  const text = String(req.params.gameId);
  if (!GAME_ID_PATTERN.test(text)) {
    throw notFound(`no such game: a game id is ${GAME_ID_RULE}, as the state shows it`);
  }
  return text;
}

const validateSit = bodyValidator(SitRequest);
const validateTopUp = bodyValidator(TopUpRequest);
const validateBet = bodyValidator(BetRequest);
const validateNoBody = bodyValidatorWithDefaults(NoBody);
const validateAdvance = optionalBodyValidator(AdvanceRequest);

/**
 * What every money move sends besides its amount: the caller, acting for the body's playerId when it
 * names one (403 unless it is the caller or an ADMIN), the table and the idempotency key. The key is
 * also in the answer's Idempotency-Key header, the gateway's own when the client sent none, so any
 * answer can be followed up with the same key (moveOutcome).
 */
function moneyMoveRequest(req: Request, res: Response, tableId: number, named: string | undefined) {
  const idempotencyKey = idempotencyKeyOf(req);
  res.setHeader(API_HEADERS.idempotencyKey, idempotencyKey);
  const identity = identityOf(res);
  return { caller: callerFor(identity, actingPlayerId(identity, named)), tableId, idempotencyKey };
}

/**
 * A money move's call and its answer for the client. A 5xx does not mean nothing happened: the call
 * may have reached the table service before its deadline ran out or its connection broke (503), or
 * the move was made and its reply broke the contract (500). The answer says so; the same request with
 * the same key replays the move's result, or makes it once.
 */
async function moveOutcome<T, R>(call: Promise<T>, toApi: (response: T) => R): Promise<R> {
  try {
    return toApi(await fromService("table", call));
  } catch (error) {
    const failure = error instanceof HttpError ? error : internalError(error);
    if (failure.status < 500) throw failure;
    throw new HttpError(failure.status, `${failure.message}: ${MOVE_OUTCOME_UNKNOWN}`, {
      cause: failure.options.cause,
      headers: { "Retry-After": String(RETRY_AFTER_SECONDS) },
    });
  }
}

/** A state's answer (advance's, state's): its JSON and the table's version of it. */
function sendTableState(res: Response, answer: { state?: TableState; version: number }): void {
  const body = toTableGameState(answer.state);
  res.set(API_HEADERS.tableVersion, String(toTableVersion(answer.version))).json(body);
}

// The four money moves read alike on purpose: each validates its own body and names its own fields;
// moneyMoveRequest above holds what they share.
export function tableRoutes(table: TableApi, spendHistoryReads: SpendHistoryReads): Handlers<typeof tablesApi> {
  const fromTable = <T>(call: Promise<T>) => fromService("table", call);
  return {
    sit: async (req, res) => {
      const tableId = tableIdOf(req);
      const body = validateSit(req.body);
      const request = {
        ...moneyMoveRequest(req, res, tableId, body.playerId),
        buyInCents: parseMoney(body.buyInAmount),
      };
      res.json(await moveOutcome(table.sit(request, callOptions(req, DEADLINES_MS.moneyMove)), toSitResponse));
    },
    topUp: async (req, res) => {
      const tableId = tableIdOf(req);
      const body = validateTopUp(req.body);
      const request = { ...moneyMoveRequest(req, res, tableId, body.playerId), amountCents: parseMoney(body.amount) };
      res.json(await moveOutcome(table.topUp(request, callOptions(req, DEADLINES_MS.moneyMove)), toTopUpResponse));
    },
    bet: async (req, res) => {
      const tableId = tableIdOf(req);
      const body = validateBet(req.body);
      const request = {
        ...moneyMoveRequest(req, res, tableId, body.playerId),
        seatIndex: body.seatIndex,
        handIndex: body.handIndex,
        betAmountCents: parseMoney(body.betAmount),
        ...(body.at && { at: body.at }),
      };
      res.json(await moveOutcome(table.bet(request, callOptions(req, DEADLINES_MS.moneyMove)), toBetResponse));
    },
    /** Leave acts for the token's subject only. */
    leave: async (req, res) => {
      const tableId = tableIdOf(req);
      validateNoBody(req.body);
      const request = moneyMoveRequest(req, res, tableId, undefined);
      res.json(await moveOutcome(table.leave(request, callOptions(req, DEADLINES_MS.moneyMove)), toLeaveResponse));
    },
    /** Advance is the token's subject's (the service allows players seated there, and ADMINs). */
    advance: async (req, res) => {
      const tableId = tableIdOf(req);
      const { from, clientSeed } = validateAdvance(req.body);
      const request = {
        caller: callerFor(identityOf(res)),
        tableId,
        ...(from && { from: { gameId: from.gameId, gameState: gameStateOfName(from.gameState) } }),
        ...(clientSeed !== undefined && { clientSeed }),
      };
      sendTableState(res, await fromTable(table.advance(request, callOptions(req, DEADLINES_MS.advance))));
    },
    getTableState: async (req, res) => {
      const request = { caller: callerFor(identityOf(res)), tableId: tableIdOf(req) };
      sendTableState(res, await fromTable(table.getState(request, callOptions(req, DEADLINES_MS.read))));
    },
    getGame: async (req, res) => {
      const request = { caller: callerFor(identityOf(res)), tableId: tableIdOf(req), gameId: gameIdOf(req) };
      await spendHistoryReads(req, res, GAME_RECORD_READS);
      const response = await fromTable(table.getGame(request, callOptions(req, DEADLINES_MS.read)));
      res.json(toGameRecord(response.game));
    },
  };
}
