// The table service's environment, read once at start-up: a bad value stops the process.
// The same pattern as every service's config.ts (one interface, one readConfig(env)): alike on purpose.
import { DEFAULT_PORTS, defaultAddress } from "@pokerodds/common/stack-layout";
import { ConfigError, envInt, envOptional, envPort, envString } from "@pokerodds/common";
import { readMetricsListen, type MetricsListen } from "@pokerodds/common/metrics";
import { readDatabaseSettings, type DatabaseSettings } from "@pokerodds/common/mongo";
import { FIRST_PERSONAL_TABLE_ID } from "@pokerodds/common/table-ids";
import { DEFAULT_TARGET_RTP, isTargetRtp, MIN_TABLE_TARGET_RTP, parseTargetRtp } from "@pokerodds/common/limits";

interface TableServiceConfig {
  grpcPort: number;
  metrics: MetricsListen;
  database: DatabaseSettings;
  oddsAddress: string;
  walletAddress: string;
  /** Public tables are 1..tableCount. */
  tableCount: number;
  /** The odds service prices every panel at this return-to-player. */
  targetRtp: number;
  /** How often recovery looks for unfinished work (pending transfers, undelivered credits). */
  recoveryIntervalMs: number;
  /** Work younger than this is left to the request still doing it. */
  recoveryGraceMs: number;
  /** How often a watched table's log is probed for versions other replicas stored (WatchTable). */
  watchPollIntervalMs: number;
  /** WatchTable and ExportGames streams one client address may hold open (0: no cap). */
  maxStreamsPerAddress: number;
  /** How old a lobby pass may be when it answers (reads.ts lobbyReader). */
  lobbyMaxAgeMs: number;
  /** TABLE_RESTORED_FROM: the database was restored from this backup; every table is sealed once (restore-seal.ts). */
  restoredFrom?: string;
}

type Env = Record<string, string | undefined>;

export function readConfig(env: Env = process.env): TableServiceConfig {
  return {
    grpcPort: envPort("GRPC_PORT", DEFAULT_PORTS.table, env),
    metrics: readMetricsListen(9467, env),
    database: readDatabaseSettings("table", env),
    oddsAddress: envString("ODDS_ADDR", defaultAddress("odds"), env),
    walletAddress: envString("WALLET_ADDR", defaultAddress("wallet"), env),
    // Public tables end before the personal ones start.
    tableCount: envInt("TABLE_COUNT", 20, { min: 1, max: FIRST_PERSONAL_TABLE_ID - 1 }, env),
    targetRtp: envRtp(env),
    recoveryIntervalMs: envInt("TABLE_RECOVERY_INTERVAL_MS", 5000, { min: 100, max: 3_600_000 }, env),
    recoveryGraceMs: envInt("TABLE_RECOVERY_GRACE_MS", 15_000, { min: 0, max: 3_600_000 }, env),
    // A watcher on this replica sees another replica's change at most this late; each watched
    // table costs one `_id` read per interval here, however many watch it.
    watchPollIntervalMs: envInt("TABLE_WATCH_POLL_MS", 250, { min: 10, max: 60_000 }, env),
    // A gateway follows at most its EVENTS_MAX_STREAMS tables (1,000) and 100 more lingering, on one
    // stream each, and exports a few games' lists at a time: this leaves it room. Raise it with the
    // gateway's EVENTS_MAX_STREAMS, or with gateways that share one address.
    maxStreamsPerAddress: envInt("TABLE_MAX_STREAMS_PER_ADDRESS", 1_200, { max: 1_000_000 }, env),
    // The lobby shows another replica's change at most this late and two passes' time (this
    // replica's at once); a pass reads every active table's head, so at most one runs per interval
    // however many poll. 0: every call makes its own pass.
    lobbyMaxAgeMs: envInt("TABLE_LOBBY_MAX_AGE_MS", 1000, { min: 0, max: 60_000 }, env),
    ...envRestoredFrom(env),
  };
}

/** A restore's name: part of every table's seal key, so letters, digits and . _ : - only. */
const RESTORE_NAME = /^[A-Za-z0-9._:-]{1,64}$/;

function envRestoredFrom(env: Env): { restoredFrom?: string } {
  const name = envOptional("TABLE_RESTORED_FROM", env);
  if (name === undefined) return {};
  if (!RESTORE_NAME.test(name)) {
    throw new ConfigError(
      `TABLE_RESTORED_FROM must name the backup restored in 1 to 64 letters, digits, ".", "_", ":" or "-", got ${JSON.stringify(name)}`,
    );
  }
  return { restoredFrom: name };
}

function envRtp(env: Env): number {
  const raw = env.TABLE_TARGET_RTP;
  if (raw === undefined || raw === "") return DEFAULT_TARGET_RTP;
  const value = parseTargetRtp(raw);
  if (!isTargetRtp(value) || value < MIN_TABLE_TARGET_RTP) {
    throw new ConfigError(
      `TABLE_TARGET_RTP must be a number from ${MIN_TABLE_TARGET_RTP} (below it a hand certain to win would show ` +
        `odds 0, and no game could be dealt) to 1 (exclusive), got ${JSON.stringify(raw)}`,
    );
  }
  return value;
}
