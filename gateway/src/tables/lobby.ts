import type { ListTablesResponse } from "@pokerodds/common/generated/pokerodds/table/v1/table";
import { gzipSync } from "node:zlib";
import { CoalescedRead } from "@pokerodds/common/coalesced-read";
import { DEADLINES_MS } from "../http/backend-call.js";
import { httpErrorFromGrpc } from "../http/errors.js";
import type { Handlers } from "../http/mount.js";
import { requestIdOf, requestLog } from "../http/request.js";
import type { TableApi } from "../services.js";
import type { lobbyApi } from "@pokerodds/api/tables";
import { EMPTY_LOBBY, toTablesList } from "./to-api.js";

/** A lobby this gateway answered, as the JSON it sent, under the table service's etag. */
interface HeldLobby {
  etag: string;
  body: Buffer;
  /** The same gzipped, once a client that takes gzip asked for it. */
  gzipped?: Buffer;
}

export function lobbyRoutes(table: TableApi): Handlers<typeof lobbyApi> {
  // The last lobby answered: while the table service says it is still the lobby, its JSON is sent
  // again. At thousands of active tables, decoding the list and writing its JSON for every request
  // cost this gateway about 2 ms of CPU a request.
  let held: HeldLobby | undefined;

  /** The lobby of the table service's answer to a call that named the etag of `asked`. */
  function lobbyOf(response: ListTablesResponse, asked: HeldLobby | undefined): HeldLobby {
    if (response.unchanged) {
      if (asked?.etag !== response.etag) {
        throw new Error("the table service called a lobby unchanged that was not asked for");
      }
      return asked;
    }
    held = { etag: response.etag, body: Buffer.from(JSON.stringify(toTablesList(response))) };
    return held;
  }

  // One call to the table service at a time: requests that come while it is out wait for one next
  // call, made after they came, so each answer is as fresh as a call of its own. When the lobby
  // changed, every request in flight named the old etag and was sent the whole list, which this
  // gateway decoded and wrote for each: at 4,000 active tables, with 8 players sitting and leaving
  // (41 moves a second), 32 clients got 148 lobbies a second (bench/lobby.ts). The call carries the
  // id of the request that made it.
  const calls = new CoalescedRead(async (requestId: string) => {
    const asked = held;
    const options = { deadlineMs: DEADLINES_MS.read, requestId };
    return lobbyOf(await table.listTables({ cachedEtag: asked?.etag ?? "" }, options), asked);
  });

  return {
    /**
     * GET /api/tables (public): the active tables. When the table service or its database is
     * unavailable the lobby is degraded, not broken: 200 with no tables, and a warning in the log.
     */
    listTables: async (req, res) => {
      let lobby: HeldLobby;
      try {
        lobby = await calls.get(0, requestIdOf(req));
      } catch (error) {
        const answer = httpErrorFromGrpc(error, "table");
        if (answer.status !== 503) throw answer;
        requestLog(res).warn({ err: error }, "table service unavailable: the lobby lists no tables");
        // As the document promises every lobby's answer; without an ETag the next poll reads it whole.
        res.set("Cache-Control", "no-cache").json(EMPTY_LOBBY);
        return;
      }
      // Players poll the lobby (every 30 s): one that holds this lobby is told so in a 304, without it.
      // The table service's etag is a hash of the lobby, so every replica gives the same lobby the same.
      res.vary("Accept-Encoding").set({ ETag: `W/"${lobby.etag}"`, "Cache-Control": "no-cache" });
      if (req.fresh) {
        res.status(304).end();
        return;
      }
      res.type("json");
      // The list of every active table compresses well (227 KB at 4,000 tables to 10-16 KB), and it
      // is compressed once per lobby, not per request (about 3 ms at that size: synchronously).
      if (req.acceptsEncodings("gzip", "identity") === "gzip") {
        res.set("Content-Encoding", "gzip").send((lobby.gzipped ??= gzipSync(lobby.body)));
      } else {
        res.send(lobby.body);
      }
    },
  };
}
