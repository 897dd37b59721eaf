import type { ListTablesResponse } from "@pokerodds/common/generated/pokerodds/table/v1/table";
import type { RequestHandler } from "express";
import { DEADLINES_MS } from "../deadlines.js";
import { httpErrorFromGrpc } from "../http/grpc-errors.js";
import { requestIdOf } from "../http/request-logging.js";
import type { TableApi } from "../services.js";
import { EMPTY_LOBBY, toTablesList } from "../tables/to-api.js";

/**
 * GET /api/tables (public): the active tables. When the table service or its database is
 * unavailable the lobby is degraded, not broken: 200 with no tables, and a warning in the log.
 */
export function lobbyRoute(table: TableApi): RequestHandler {
  return async (req, res) => {
    let response: ListTablesResponse;
    try {
      response = await table.listTables({}, { deadlineMs: DEADLINES_MS.read, requestId: requestIdOf(req) });
    } catch (error) {
      const answer = httpErrorFromGrpc(error, "table");
      if (answer.status !== 503) throw answer;
      req.log.warn({ err: error }, "table service unavailable: the lobby lists no tables");
      res.json(EMPTY_LOBBY);
      return;
    }
    res.json(toTablesList(response));
  };
}
