import type { Logger } from "@pokerodds/common";
import type { OddsPort, WalletPort } from "./dependencies.js";
import type { SnapshotStore } from "./snapshot-store.js";
import type { TableDirectory } from "./table-directory.js";
import type { TableWatchers } from "./table-watch.js";
import type { TransferStore } from "./transfer-store.js";

/** Everything an operation of the table service needs; built once in main.ts (or by a test). */
export interface TableParts {
  store: SnapshotStore;
  transfers: TransferStore;
  directory: TableDirectory;
  wallet: WalletPort;
  odds: OddsPort;
  /** The target return to player a game is priced at from its deal (TABLE_TARGET_RTP). */
  targetRtp: number;
  /** This replica's feeds of watched tables (WatchTable). */
  watchers: TableWatchers;
  logger: Logger;
}
