// The gRPC adapter: decode, call the operation, encode. Rules live in domain/, steps in the sagas
// and stores.
import {
  callEnded,
  OneAtATime,
  InvalidArgumentError,
  serverStreaming,
  UnavailableError,
  unary,
  type Logger,
  type ServerStreamHandler,
  type UnaryHandler,
} from "@pokerodds/common";
import type { Slots } from "@pokerodds/common/slots";
import type {
  ExportGamesRequest,
  ExportGamesResponse,
  TableServiceServer,
  WatchTableRequest,
  WatchTableResponse,
} from "@pokerodds/common/generated/pokerodds/table/v1/table";
import { advance } from "./advance.js";
import { auditReader } from "./audit.js";
import { placeBet } from "./bet.js";
import { betsAccepted } from "./metrics.js";
import type { CallScope } from "./dependencies.js";
import { toDomainError } from "./errors.js";
import { exportGames } from "./game-export.js";
import type { TableParts } from "./parts.js";
import {
  advanceFromProto,
  clientSeedFromProto,
  auditToProto,
  betAtFromProto,
  callerFromProto,
  exportFilterFromProto,
  finishedGameToProto,
  tableStateToProto,
} from "./proto-mapping.js";
import { finishedGame, lobbyReader, seatsReader, tableState, watchTable } from "./reads.js";
import { leave, sit, topUp } from "./sagas/index.js";
import { publicState } from "./domain/index.js";

/**
 * `databaseReady`: false until the unique indexes exist; every RPC is UNAVAILABLE until then.
 * `closing`: aborted when the process stops taking calls; open WatchTable streams then end UNAVAILABLE.
 * `streamsPerAddress`: the WatchTable and ExportGames streams each client address holds open.
 */
export function tableService(
  parts: TableParts,
  logger: Logger,
  settings: { databaseReady: () => boolean; lobbyMaxAgeMs: number; closing?: AbortSignal; streamsPerAddress?: Slots },
): TableServiceServer {
  const { databaseReady, lobbyMaxAgeMs, closing, streamsPerAddress } = settings;
  const streams = { closing, perAddress: streamsPerAddress };
  const rpc = <Req, Res>(name: string, handler: (request: Req, scope: CallScope) => Promise<Res>) =>
    unary(logger, name, guardDependencies(databaseReady, handler));

  const lobby = lobbyReader(parts, lobbyMaxAgeMs);
  // An audit reads every table: a second one while it runs is refused, not stacked.
  const audits = new OneAtATime("an audit is running on this table service replica; retry when it ends");
  const audit = auditReader(parts);
  const seats = seatsReader(parts);
  return {
    listTables: rpc("ListTables", (request) => lobby(request.cachedEtag)),

    sit: rpc("Sit", (request, scope) => sit(parts, { ...request, caller: callerFromProto(request.caller) }, scope)),

    topUp: rpc("TopUp", (request, scope) =>
      topUp(parts, { ...request, caller: callerFromProto(request.caller) }, scope),
    ),

    bet: rpc("Bet", async (request, scope) => {
      const answer = await placeBet(
        parts,
        {
          caller: callerFromProto(request.caller),
          tableId: request.tableId,
          seatIndex: request.seatIndex,
          handIndex: request.handIndex,
          betAmountCents: request.betAmountCents,
          idempotencyKey: request.idempotencyKey,
          at: betAtFromProto(request.at),
        },
        scope,
      );
      if (answer.acknowledged) betsAccepted.inc();
      return answer;
    }),

    leave: rpc("Leave", async (request, scope) => ({
      acknowledged: true,
      ...(await leave(parts, { ...request, caller: callerFromProto(request.caller) }, scope)),
    })),

    advance: rpc("Advance", async (request, scope) => {
      const snapshot = await advance(
        parts,
        {
          caller: callerFromProto(request.caller),
          tableId: request.tableId,
          from: advanceFromProto(request.from),
          clientSeed: clientSeedFromProto(request.clientSeed),
        },
        scope,
      );
      return { state: tableStateToProto(publicState(snapshot)), version: snapshot.version };
    }),

    getState: rpc("GetState", async (request, scope) => {
      const read = { caller: callerFromProto(request.caller), tableId: request.tableId };
      const { state, version } = await tableState(parts, read, scope);
      return { state: tableStateToProto(state), version };
    }),

    getGame: rpc("GetGame", async (request, scope) => ({
      game: finishedGameToProto(
        await finishedGame(
          parts,
          { caller: callerFromProto(request.caller), tableId: request.tableId, gameId: request.gameId },
          scope,
        ),
      ),
    })),

    listSeats: rpc("ListSeats", async (request, scope) => ({
      seats: await seats(callerFromProto(request.caller).playerId, scope),
    })),

    audit: rpc("Audit", (request, scope) =>
      audits.run(async () => auditToProto(await audit(callerFromProto(request.caller), callEnded(scope.parent!)))),
    ),

    watchTable: serverStreaming(logger, "WatchTable", watchHandler(parts, databaseReady), streams),

    exportGames: serverStreaming(logger, "ExportGames", exportHandler(parts, databaseReady), streams),
  };
}

/** ExportGames's adapter: the filter from the wire, each finished game onto it as it is read. */
function exportHandler(
  parts: TableParts,
  databaseReady: () => boolean,
): ServerStreamHandler<ExportGamesRequest, ExportGamesResponse> {
  return async (request, context, send) => {
    if (!databaseReady()) throw new UnavailableError("the table database is not ready");
    const caller = callerFromProto(request.caller);
    const filter = exportFilterFromProto(request);
    try {
      const games = await exportGames(parts.store, caller, filter, {
        ready: context.accept,
        send: (game) => send({ game: finishedGameToProto(game) }),
        signal: context.signal,
      });
      context.logger.info({ games, filter }, "games exported");
    } catch (error) {
      throw toDomainError(error);
    }
  };
}

/** WatchTable's adapter: each stored version as the state GetState would answer, with its version. */
function watchHandler(
  parts: TableParts,
  databaseReady: () => boolean,
): ServerStreamHandler<WatchTableRequest, WatchTableResponse> {
  return async (request, context, send) => {
    if (!databaseReady()) throw new UnavailableError("the table database is not ready");
    if (!Number.isSafeInteger(request.afterVersion) || request.afterVersion < 0) {
      throw new InvalidArgumentError("after_version must be 0 or a version of the table");
    }
    try {
      await watchTable(
        parts,
        {
          caller: callerFromProto(request.caller),
          tableId: request.tableId,
          start: { afterVersion: request.afterVersion, recentVersions: request.recentVersions },
        },
        { requestId: context.requestId, logger: context.logger },
        {
          ready: context.accept,
          send: (version, snapshot, latestVersion) =>
            send({ version, state: tableStateToProto(publicState(snapshot)), latestVersion }),
          signal: context.signal,
        },
      );
    } catch (error) {
      throw toDomainError(error);
    }
  };
}

/**
 * UNAVAILABLE before the indexes exist; failures of the database, the wallet and the odds service
 * mapped in one place (errors.ts). The wallet's adapter has the same guard for its database.
 */
function guardDependencies<Req, Res>(
  databaseReady: () => boolean,
  handler: (request: Req, scope: CallScope) => Promise<Res>,
): UnaryHandler<Req, Res> {
  return async (request, context) => {
    if (!databaseReady()) throw new UnavailableError("the table database is not ready");
    try {
      return await handler(request, { parent: context.call, requestId: context.requestId, logger: context.logger });
    } catch (error) {
      throw toDomainError(error);
    }
  };
}
