// The narrow views of the backends that the app needs: main.ts passes the real gRPC clients,
// tests pass plain objects.
import type { CallOptions, HealthChecker } from "@pokerodds/common";
import type {
  DealRequest,
  DealResponse,
  GenerateBulkRequest,
  GenerateBulkResponse,
} from "@pokerodds/common/generated/pokerodds/odds/v1/odds";

/** The odds service's promise client (createClient's `call`), as far as the gateway uses it. */
export interface OddsApi {
  deal(request: DealRequest, options: CallOptions): Promise<DealResponse>;
  generateBulk(request: GenerateBulkRequest, options: CallOptions): Promise<GenerateBulkResponse>;
}

export type HealthProbe = Pick<HealthChecker, "check">;

export interface HealthProbes {
  odds: HealthProbe;
  wallet: HealthProbe;
  table: HealthProbe;
}
