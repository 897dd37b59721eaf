import type { ListTablesResponse } from "@pokerodds/common/generated/pokerodds/table/v1/table";
import { DEADLINES_MS, callOptions } from "../http/backend-call.js";
import { httpErrorFromGrpc } from "../http/errors.js";
import type { Handlers } from "../http/mount.js";
import { requestLog } from "../http/request.js";
import type { TableApi } from "../services.js";
import type { lobbyApi } from "@pokerodds/api/tables";
import { EMPTY_LOBBY, toTablesList } from "./to-api.js";

export function lobbyRoutes(table: TableApi): Handlers<typeof lobbyApi> {
  return {
    /**
     * GET /api/tables (public): the active tables. When the table service or its database is
     * unavailable the lobby is degraded, not broken: 200 with no tables, and a warning in the log.
     */
    listTables: async (req, res) => {
      let response: ListTablesResponse;
      try {
        response = await table.listTables({}, callOptions(req, DEADLINES_MS.read));
      } catch (error) {
        const answer = httpErrorFromGrpc(error, "table");
        if (answer.status !== 503) throw answer;
        requestLog(res).warn({ err: error }, "table service unavailable: the lobby lists no tables");
        res.json(EMPTY_LOBBY);
        return;
      }
      res.json(toTablesList(response));
    },
  };
}
