// The gRPC adapter: decode, call the operation, encode. Rules live in domain/, steps in the sagas
// and stores.
import { UnavailableError, unary, type Logger, type UnaryHandler } from "@pokerodds/common";
import type { TableServiceServer } from "@pokerodds/common/generated/pokerodds/table/v1/table";
import { advance } from "./advance.js";
import { auditTables } from "./audit.js";
import { placeBet } from "./bet.js";
import { betsAccepted } from "./metrics.js";
import type { CallScope } from "./dependencies.js";
import { toDomainError } from "./errors.js";
import type { TableParts } from "./parts.js";
import { auditToProto, callerFromProto, tableStateToProto } from "./proto-mapping.js";
import { lobby, tableState } from "./reads.js";
import { leave, sit, topUp } from "./sagas/index.js";

/** `databaseReady`: false until the unique indexes exist; every RPC is UNAVAILABLE until then. */
export function tableService(parts: TableParts, logger: Logger, databaseReady: () => boolean): TableServiceServer {
  const rpc = <Req, Res>(name: string, handler: (request: Req, scope: CallScope) => Promise<Res>) =>
    unary(logger, name, guardDependencies(databaseReady, handler));

  return {
    listTables: rpc("ListTables", () => lobby(parts)),

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

    advance: rpc("Advance", async (request, scope) => ({
      state: tableStateToProto(
        await advance(parts, { caller: callerFromProto(request.caller), tableId: request.tableId }, scope),
      ),
    })),

    getState: rpc("GetState", async (request, scope) => ({
      state: tableStateToProto(
        await tableState(parts, { caller: callerFromProto(request.caller), tableId: request.tableId }, scope),
      ),
    })),

    audit: rpc("Audit", async (request) => auditToProto(await auditTables(parts, callerFromProto(request.caller)))),
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
      return await handler(request, { parent: context.call, requestId: context.requestId });
    } catch (error) {
      throw toDomainError(error);
    }
  };
}
