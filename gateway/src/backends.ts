// The gRPC clients of the three backends. A channel retries UNAVAILABLE only where repeating a call is
// safe: reads, and movements that carry an idempotency key.
import { createClient, openServerStream, type PromiseClient, type TlsFiles } from "@pokerodds/common";
import { OddsServiceClient } from "@pokerodds/common/generated/pokerodds/odds/v1/odds";
import { TableServiceClient } from "@pokerodds/common/generated/pokerodds/table/v1/table";
import { WalletServiceClient } from "@pokerodds/common/generated/pokerodds/wallet/v1/wallet";
import type { GatewayConfig } from "./config.js";
import { DEADLINES_MS } from "./http/backend-call.js";
import type { GameRecordsApi, OddsApi, TableApi, TableEventsApi, WalletApi } from "./services.js";

// GetProfile writes the welcome credit at most once per player; GetPlayer and ListLedger read.
const WALLET_METHODS = ["getProfile", "getPlayer", "listLedger"] as const satisfies readonly (keyof WalletApi)[];
// Reads, and money moves that carry an idempotency key. Advance is not among them: it moves the game
// on and carries no key, and an UNAVAILABLE can come after the move was made.
const TABLE_REPEATABLE = [
  "listTables",
  "listSeats",
  "sit",
  "topUp",
  "bet",
  "leave",
  "getState",
  "getGame",
] as const satisfies readonly Exclude<keyof TableApi, "advance">[];
const TABLE_METHODS = [...TABLE_REPEATABLE, "advance"] as const satisfies readonly (keyof TableApi)[];

/** The gateway's view of an odds client: Deal as a promise, GenerateBulk as a stream with a deadline. */
export function oddsApiOf(odds: {
  raw: OddsServiceClient;
  call: Pick<PromiseClient<OddsServiceClient>, "deal">;
}): OddsApi {
  return {
    deal: odds.call.deal,
    generateBulk: (request, { deadlineMs, ...options }) =>
      openServerStream(
        OddsServiceClient.service.generateBulk.path,
        (metadata) => odds.raw.generateBulk(request, metadata, { deadline: Date.now() + deadlineMs }),
        options,
      ),
  };
}

interface Backends {
  odds: OddsApi;
  wallet: Required<WalletApi>;
  table: Required<TableApi>;
  /** WatchTable on the same channel as `table`: a stream goes to any replica, as a call does. */
  tableEvents: TableEventsApi;
  /** ExportGames on the same channel as `table`. */
  gameRecords: GameRecordsApi;
  close(): void;
}

/**
 * `tls`: the gateway's certificate, key and CA (mutual TLS; the gateway's readBackendTls, as our
 * servers refuse plaintext); without it, TLS_* from the environment, else plaintext (in-process tests).
 */
export function connectBackends(
  config: Pick<GatewayConfig, "oddsAddress" | "walletAddress" | "tableAddress"> & { tls?: TlsFiles },
): Backends {
  const { tls } = config;
  // Deal and bulk change nothing.
  const odds = createClient(OddsServiceClient, ["deal"], config.oddsAddress, {
    defaultDeadlineMs: 5_000,
    retryUnavailable: ["deal", "generateBulk"],
    tls,
  });
  const wallet = createClient(WalletServiceClient, WALLET_METHODS, config.walletAddress, {
    defaultDeadlineMs: DEADLINES_MS.read,
    retryUnavailable: WALLET_METHODS,
    tls,
  });
  const table = createClient(TableServiceClient, TABLE_METHODS, config.tableAddress, {
    defaultDeadlineMs: DEADLINES_MS.read,
    retryUnavailable: TABLE_REPEATABLE,
    tls,
  });
  // The audits, on channels of their own whose calls may outlast a connection (longCalls) and whose
  // replies grow with the system: the table's lists every table ever written (about 56 bytes each).
  // The audit's deadline reads about 80,000 tables (4.3 MiB); 8 MiB (about 170,000) leaves room while
  // a reply, decoded (about 4.7x its size: 33 MB at 150,000 tables, a one-off measurement), stays well inside the gateway's
  // heap: half its pod's 256 MiB (deploy/k8s/base/gateway.yaml, the images' Node flags). At 32 MiB a
  // faulty or hostile replica's reply would have decoded to more than that heap.
  const audits = {
    defaultDeadlineMs: DEADLINES_MS.read,
    retryUnavailable: ["audit"],
    tls,
    longCalls: true,
    maxReceiveBytes: 8 * 1024 * 1024,
  };
  const walletAudit = createClient(WalletServiceClient, ["audit"], config.walletAddress, audits);
  const tableAudit = createClient(TableServiceClient, ["audit"], config.tableAddress, audits);
  return {
    odds: oddsApiOf(odds),
    wallet: { ...wallet.call, audit: walletAudit.call.audit },
    table: { ...table.call, audit: tableAudit.call.audit },
    // No deadline and no retry policy: the stream lives until the gateway cancels it, and the
    // gateway itself subscribes again, from the last version it sent, when it breaks.
    tableEvents: {
      watchTable: (request, options) =>
        openServerStream(
          TableServiceClient.service.watchTable.path,
          (metadata) => table.raw.watchTable(request, metadata),
          options,
        ),
    },
    // The same: an export lasts as long as its games take to read and send, and the gateway resumes
    // it itself, after the last game sent, when it breaks.
    gameRecords: {
      exportGames: (request, options) =>
        openServerStream(
          TableServiceClient.service.exportGames.path,
          (metadata) => table.raw.exportGames(request, metadata),
          options,
        ),
    },
    close: () => {
      for (const client of [odds, wallet, table, walletAudit, tableAudit]) client.raw.close();
    },
  };
}
