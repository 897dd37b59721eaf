// Who may call what: one table per service, by the caller's certificate identity. Every RPC of a
// service must be listed (the types check it); the health service stays open to any client holding
// a certificate from our CA, for probes.
import {
  ServerInterceptingCall,
  ServerListenerBuilder,
  status,
  type ServerInterceptor,
  type ServerUnaryCall,
  type ServerWritableStream,
  type sendUnaryData,
  type ServiceDefinition,
  type StatusObject,
  type UntypedServiceImplementation,
} from "@grpc/grpc-js";
import { BinaryReader } from "@bufbuild/protobuf/wire";
import type { OddsServiceService } from "../generated/pokerodds/odds/v1/odds.js";
import type { TableServiceService } from "../generated/pokerodds/table/v1/table.js";
import type { WalletServiceService } from "../generated/pokerodds/wallet/v1/wallet.js";
import type { Logger } from "../logger.js";
import { callerOf, type ServiceIdentity } from "./tls.js";

/** RPC name (the generated definition's key) to the identities allowed to call it. */
type AccessPolicy<D = Record<string, unknown>> = { readonly [K in keyof D]: readonly ServiceIdentity[] };

// Derived from the callers: gateway/src/backends.ts (getProfile, getPlayer, audit) and
// services/table/src/dependencies.ts (getPlayer, getPersonalTable, getPersonalTableOwner, getBalance, debit,
// credit).
// Deposit and Withdraw are an operator's, by a certificate of its own: no public route offers them,
// so the Internet-facing gateway may not mint money. ListLedger only reads: the operator's tool and
// the gateway's account statement (a player's own account).
// Claims (the end user's identity) travel in GetProfile's request, so only the gateway can assert them.
export const WALLET_ACCESS: AccessPolicy<typeof WalletServiceService> = {
  getProfile: ["gateway"],
  getPlayer: ["gateway", "table"],
  getPersonalTable: ["table"],
  getPersonalTableOwner: ["table"],
  getBalance: ["table"],
  debit: ["table"],
  credit: ["table"],
  deposit: ["operator"],
  withdraw: ["operator"],
  listLedger: ["operator", "gateway"],
  audit: ["gateway"],
};

// Every table RPC carries a Caller (player id and role): only the gateway, which verified the
// token, may assert one. ExportGames is for an ADMIN caller too; the table service checks the role.
export const TABLE_ACCESS: AccessPolicy<typeof TableServiceService> = {
  listTables: ["gateway"],
  listSeats: ["gateway"],
  sit: ["gateway"],
  topUp: ["gateway"],
  bet: ["gateway"],
  leave: ["gateway"],
  advance: ["gateway"],
  getState: ["gateway"],
  getGame: ["gateway"],
  audit: ["gateway"],
  watchTable: ["gateway"],
  exportGames: ["gateway"],
};

// Derived from the callers: gateway/src/backends.ts (deal, generateBulk) and
// services/table/src/dependencies.ts (equity).
export const ODDS_ACCESS: AccessPolicy<typeof OddsServiceService> = {
  deal: ["gateway"],
  generateBulk: ["gateway"],
  equity: ["table"],
};

type Unary = (call: ServerUnaryCall<unknown, unknown>, callback: sendUnaryData<unknown>) => void;
type ServerStreaming = (call: ServerWritableStream<unknown, unknown>) => void;
/** A unary call answers through its callback; a server-streaming call has none and ends by its 'error' event. */
type Guarded = (call: ServerUnaryCall<unknown, unknown>, callback?: sendUnaryData<unknown>) => void;

/** A request the generated code could not decode, standing in for it until the call is authorized. */
class Undecodable {
  constructor(readonly reason: string) {}
}

// ignoreBOM: a leading U+FEFF is text, as the generated code reads it.
const utf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
/**
 * A string field's bytes, refused unless they are UTF-8. The generated code's default decoder puts
 * U+FFFD in place of bad bytes, so two different idempotency keys read the same and the second
 * move was answered as the first one's replay, though never made.
 */
const strictUtf8 = (bytes: Uint8Array): string => utf8.decode(bytes);

/**
 * `definition` with each request decoded inside the call rather than by grpc-js. grpc-js answers a
 * request it cannot decode (an int64 beyond 2^53 - 1, which the generated code refuses to make a
 * number of, or bytes that are no such message) INTERNAL, before the access check: a server fault
 * for a caller's bad input, told to callers the policy refuses too. Such a request now reaches
 * refuseUndecodable's wrapper as Undecodable and, once the caller is allowed, is refused
 * INVALID_ARGUMENT; so is one with a string that is not UTF-8 (strictUtf8).
 */
export function decodedAfterAccess(definition: ServiceDefinition): ServiceDefinition {
  const methods = Object.entries(definition).map(([name, method]) => {
    const requestDeserialize = (bytes: Buffer): unknown => {
      try {
        // The generated decode takes a reader as well as bytes, and reads nested messages with it.
        return method.requestDeserialize(new BinaryReader(bytes, strictUtf8) as unknown as Buffer);
      } catch (error) {
        return new Undecodable(error instanceof Error ? error.message : String(error));
      }
    };
    return [name, { ...method, requestDeserialize }];
  });
  return Object.fromEntries(methods) as ServiceDefinition;
}

/** RPC path ("/pokerodds.table.v1.TableService/Sit") to the identities allowed to call it. */
function allowedByPath(definition: ServiceDefinition, policy: Record<string, readonly ServiceIdentity[]>) {
  return new Map(Object.entries(definition).map(([name, method]) => [method.path, policy[name] ?? []]));
}

/**
 * The policy, checked as a call's headers arrive and before its request is read: no client
 * certificate is UNAUTHENTICATED, a certificate naming no allowed identity PERMISSION_DENIED. An RPC
 * of the service missing from the policy is refused to everyone; other services on the server
 * (health, reflection) are open to any certificate from our CA. Checked in the handler instead, a
 * refused caller's request (up to 4 MiB a call, any number of calls) was read whole first: a
 * service's stolen certificate bought another service's memory.
 */
export function accessInterceptor(
  definition: ServiceDefinition,
  policy: Record<string, readonly ServiceIdentity[]>,
  logger: Logger,
): ServerInterceptor {
  const allowed = allowedByPath(definition, policy);
  return (method, call) => {
    const identities = allowed.get(method.path);
    if (identities === undefined) return new ServerInterceptingCall(call);
    const refusal = (): Pick<StatusObject, "code" | "details"> | undefined => {
      const caller = callerOf(call);
      if (caller === undefined) return { code: status.UNAUTHENTICATED, details: "a client certificate is required" };
      if (caller.some((identity) => identities.includes(identity))) return undefined;
      logger.warn({ rpc: method.path, caller }, "rpc refused: caller not allowed");
      return { code: status.PERMISSION_DENIED, details: `${method.path} is not allowed to this caller` };
    };
    const listener = new ServerListenerBuilder()
      .withOnReceiveMetadata((metadata, next) => {
        const refused = refusal();
        // Not passed on: the handler never starts, so the request is never read.
        if (refused) call.sendStatus(refused);
        else next(metadata);
      })
      .build();
    return new ServerInterceptingCall(call, { start: (next) => next(listener) });
  };
}

/**
 * Wraps every handler of `implementation`: a request that could not be decoded (decodedAfterAccess)
 * is refused INVALID_ARGUMENT, once accessInterceptor let its caller in. Our RPCs are unary or
 * server-streaming (WatchTable, ExportGames).
 */
export function refuseUndecodable(
  definition: ServiceDefinition,
  implementation: UntypedServiceImplementation,
): UntypedServiceImplementation {
  const guarded: UntypedServiceImplementation = {};
  for (const [name, handler] of Object.entries(implementation)) {
    const method = definition[name];
    if (!method || method.requestStream)
      throw new Error(`cannot guard ${name}: not a unary or server-streaming RPC of the service`);
    const inner = handler as unknown as Unary & ServerStreaming;
    const wrapped: Guarded = (call, callback) => {
      if (call.request instanceof Undecodable) {
        const refusal = {
          code: status.INVALID_ARGUMENT,
          details: `the request could not be decoded: ${call.request.reason}`,
        };
        if (callback) callback(refusal);
        else (call as unknown as ServerWritableStream<unknown, unknown>).emit("error", refusal);
        return;
      }
      if (callback) inner(call, callback);
      else inner(call as unknown as ServerWritableStream<unknown, unknown>);
    };
    guarded[name] = wrapped as UntypedServiceImplementation[string];
  }
  return guarded;
}
