// GET /api/admin/games (ADMIN): every finished game as JSON Lines, relayed from the table service's
// ExportGames stream as the games come (services/table/src/game-export.ts), never gathered first.
//
// The status goes out with the first line, so a failure after it can no longer be an error answer:
// the gateway writes a line `{ error }` and cuts the connection, and a client knows an export is
// complete only by its last line, the trailer `{"end":true,"games":N}`. Each game names its table
// and version, a cursor that means the same on every table replica: when the stream breaks because
// a replica went away, the gateway exports again after the last game it sent, so the client sees
// no gap and no repeat. Closing the connection cancels the ExportGames call.
import { GAME_RECORDS_MEDIA_TYPE, type gameRecordsApi } from "@pokerodds/api/game-records";
import { isServiceError, type ServerStream } from "@pokerodds/common";
import type { ExportGamesRequest, ExportGamesResponse } from "@pokerodds/common/generated/pokerodds/table/v1/table";
import type { Response } from "express";
import { setTimeout as sleep } from "node:timers/promises";
import { callerFor, identityOf } from "../auth/caller.js";
import { forbidden, HttpError, httpErrorFromGrpc, internalError, serviceUnavailable } from "../http/errors.js";
import type { Handlers } from "../http/mount.js";
import {
  openRelay,
  relayStop,
  RESUBSCRIBE_ATTEMPTS,
  resubscribeDelayMs,
  streamInterrupted,
  whenAccepted,
  writePiece,
} from "../http/resubscribe.js";
import { requestIdOf, requestLog } from "../http/request.js";
import type { GameRecordsApi } from "../services.js";
import { exportQueryOf } from "./export-query.js";
import { toGameRecord } from "../tables/game-record.js";

/** How long the `{ error }` line may take to leave before the connection is cut anyway. */
const ERROR_LINE_MS = 1_000;

type Cursor = Pick<ExportGamesRequest, "afterTableId" | "afterVersion">;
type Subscribe = (after: Cursor) => Promise<ServerStream<ExportGamesResponse>>;

const line = (value: unknown) => `${JSON.stringify(value)}\n`;

export function gameRecordRoutes(records: GameRecordsApi | undefined): Handlers<typeof gameRecordsApi> {
  return {
    exportGames: async (req, res) => {
      const identity = identityOf(res);
      if (identity.role !== "ADMIN") throw forbidden("the game export is for an ADMIN");
      const query = exportQueryOf(req);
      if (!records) throw serviceUnavailable("table");
      // Stopped when the client goes or the export ends: the ExportGames call is cancelled with it.
      const { signal, stop } = relayStop(res);
      const request = { ...query, caller: callerFor(identity) };
      const subscribe: Subscribe = (after) =>
        whenAccepted(records.exportGames({ ...request, ...after }, { requestId: requestIdOf(req), signal }));
      try {
        const first = await openRelay(req, res, { subscribe, start: query, signal }, GAME_RECORDS_MEDIA_TYPE);
        if (!first) return;
        const games = await relay(res, { first, subscribe, start: query }, signal);
        if (games !== null) await writePiece(res, line({ end: true, games }), signal);
      } catch (error) {
        if (!res.headersSent) throw error;
        if (!signal.aborted) await breakOff(res, error);
      } finally {
        stop();
        if (res.headersSent && !res.writableEnded && !res.destroyed) res.end();
      }
    },
  };
}

const isAfter = (game: { tableId: number; version: number }, cursor: Cursor) =>
  game.tableId > cursor.afterTableId || (game.tableId === cursor.afterTableId && game.version > cursor.afterVersion);

/**
 * Writes every game of the stream, and of the streams opened after the last game sent when one
 * breaks, until the export is done: the number of games written, or null when the client went away.
 * Throws what ends it otherwise (a refusal, a game the contract does not allow, RESUBSCRIBE_ATTEMPTS calls in a
 * row that brought nothing).
 */
async function relay(
  res: Response,
  { first, subscribe, start }: { first: ServerStream<ExportGamesResponse>; subscribe: Subscribe; start: Cursor },
  signal: AbortSignal,
): Promise<number | null> {
  let cursor: Cursor = { afterTableId: start.afterTableId, afterVersion: start.afterVersion };
  let stream: ServerStream<ExportGamesResponse> | undefined = first;
  let games = 0;
  for (let failures = 0; ;) {
    try {
      stream ??= await subscribe(cursor);
      for await (const { game } of stream) {
        failures = 0;
        // Never twice, whatever a replica sends.
        if (game && !isAfter(game, cursor)) continue;
        await writePiece(res, line(toGameRecord(game)), signal);
        cursor = { afterTableId: game!.tableId, afterVersion: game!.version };
        games++;
      }
      return games;
    } catch (error) {
      if (signal.aborted) return null;
      if (!streamInterrupted(error) || ++failures >= RESUBSCRIBE_ATTEMPTS) throw error;
    }
    stream = undefined;
    requestLog(res).info(
      { cursor, games, failures },
      "game export interrupted: exporting again after the last game sent",
    );
    await sleep(resubscribeDelayMs(failures), undefined, { signal }).catch(() => undefined);
    if (signal.aborted) return null;
  }
}

/** Too late for a status: the reason as a last line, then the connection cut, so no client takes it for complete. */
async function breakOff(res: Response, error: unknown): Promise<void> {
  const answer =
    error instanceof HttpError
      ? error
      : isServiceError(error)
        ? httpErrorFromGrpc(error, "table")
        : internalError(error);
  requestLog(res).error({ err: error }, "game export broke off");
  if (!res.destroyed && !res.writableEnded) {
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ERROR_LINE_MS);
      res.write(line({ error: answer.message }), () => {
        clearTimeout(timer);
        resolve();
      });
    });
  }
  res.destroy();
}
