import type { ListTablesResponse } from "@pokerodds/common/generated/pokerodds/table/v1/table";
import { DEADLINES_MS, callOptions } from "../http/backend-call.js";
import { httpErrorFromGrpc } from "../http/errors.js";
import type { Handlers } from "../http/mount.js";
import { requestLog } from "../http/request.js";
import type { TableApi } from "../services.js";
import type { lobbyApi } from "@pokerodds/api/tables";
import { EMPTY_LOBBY, toTablesList } from "./to-api.js";

/** A lobby this gateway answered, as the JSON it sent, under the table service's etag. */
interface HeldLobby {
  etag: string;
  body: Buffer;
}

export function lobbyRoutes(table: TableApi): Handlers<typeof lobbyApi> {
  // The last lobby answered: while the table service says it is still the lobby, its JSON is sent
  // again. At thousands of active tables, decoding the list and writing its JSON for every request
  // cost this gateway about 2.5 ms of CPU a request.
  let held: HeldLobby | undefined;

  /** The JSON of the table service's answer to a call that named the etag of `asked`. */
  function bodyOf(response: ListTablesResponse, asked: HeldLobby | undefined): Buffer {
    if (response.unchanged) {
      if (asked?.etag !== response.etag)
        throw new Error("the table service called a lobby unchanged that was not asked for");
      return asked.body;
    }
    const body = Buffer.from(JSON.stringify(toTablesList(response)));
    held = { etag: response.etag, body };
    return body;
  }

  return {
    /**
     * GET /api/tables (public): the active tables. When the table service or its database is
     * unavailable the lobby is degraded, not broken: 200 with no tables, and a warning in the log.
     */
    listTables: async (req, res) => {
      const asked = held;
      let response: ListTablesResponse;
      try {
        response = await table.listTables({ cachedEtag: asked?.etag ?? "" }, callOptions(req, DEADLINES_MS.read));
      } catch (error) {
        const answer = httpErrorFromGrpc(error, "table");
        if (answer.status !== 503) throw answer;
        requestLog(res).warn({ err: error }, "table service unavailable: the lobby lists no tables");
        res.json(EMPTY_LOBBY);
        return;
      }
      res.type("json").send(bodyOf(response, asked));
    },
  };
}
