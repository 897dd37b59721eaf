// The narrow views of the backends that the app needs: main.ts passes the real gRPC clients,
// tests pass plain objects.
import type { HealthChecker, PromiseClient } from "@pokerodds/common";
import type { OddsServiceClient } from "@pokerodds/common/generated/pokerodds/odds/v1/odds";
import type { TableServiceClient } from "@pokerodds/common/generated/pokerodds/table/v1/table";
import type { WalletServiceClient } from "@pokerodds/common/generated/pokerodds/wallet/v1/wallet";

/** The odds service's promise client (createClient's `call`), as far as the gateway uses it. */
export type OddsApi = Pick<PromiseClient<OddsServiceClient>, "deal" | "generateBulk">;

// `audit` (GET /api/admin/audit) is optional so that views built before it need not provide it; the
// real clients (connectBackends) always do, and without it the audit answers 503.
export type WalletApi = Pick<PromiseClient<WalletServiceClient>, "getProfile" | "getPlayer"> &
  Partial<Pick<PromiseClient<WalletServiceClient>, "audit">>;

export type TableApi = Pick<
  PromiseClient<TableServiceClient>,
  "listTables" | "sit" | "topUp" | "bet" | "leave" | "advance" | "getState"
> &
  Partial<Pick<PromiseClient<TableServiceClient>, "audit">>;

export type HealthProbe = Pick<HealthChecker, "check">;

export interface HealthProbes {
  odds: HealthProbe;
  wallet: HealthProbe;
  table: HealthProbe;
}
