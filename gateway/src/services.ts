// The narrow views of the backends that the app needs: main.ts passes the real gRPC clients,
// tests pass plain objects.
import type { HealthChecker, PromiseClient, ServerStream, ServerStreamCallOptions } from "@pokerodds/common";
import type {
  GenerateBulkRequest,
  GenerateBulkResponse,
  OddsServiceClient,
} from "@pokerodds/common/generated/pokerodds/odds/v1/odds";
import type {
  ExportGamesRequest,
  ExportGamesResponse,
  TableServiceClient,
  WatchTableRequest,
  WatchTableResponse,
} from "@pokerodds/common/generated/pokerodds/table/v1/table";
import type { WalletServiceClient } from "@pokerodds/common/generated/pokerodds/wallet/v1/wallet";

/** The odds service's Deal (createClient's `call`) and GenerateBulk stream (openServerStream), with a deadline. */
export type OddsApi = Pick<PromiseClient<OddsServiceClient>, "deal"> & {
  generateBulk(
    request: GenerateBulkRequest,
    options: ServerStreamCallOptions & { deadlineMs: number },
  ): ServerStream<GenerateBulkResponse>;
};

export type WalletApi = Pick<PromiseClient<WalletServiceClient>, "getProfile" | "getPlayer" | "listLedger" | "audit">;

export type TableApi = Pick<
  PromiseClient<TableServiceClient>,
  "listTables" | "listSeats" | "sit" | "topUp" | "bet" | "leave" | "advance" | "getState" | "getGame" | "audit"
>;

/** The table service's WatchTable stream (openServerStream over the table channel). */
export interface TableEventsApi {
  watchTable(request: WatchTableRequest, options: ServerStreamCallOptions): ServerStream<WatchTableResponse>;
}

/** The table service's ExportGames stream (openServerStream over the table channel). */
export interface GameRecordsApi {
  exportGames(request: ExportGamesRequest, options: ServerStreamCallOptions): ServerStream<ExportGamesResponse>;
}

export type HealthProbe = Pick<HealthChecker, "check">;

export interface HealthProbes {
  odds: HealthProbe;
  wallet: HealthProbe;
  table: HealthProbe;
}
