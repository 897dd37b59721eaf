// GET /api/health (public): asks each service's grpc.health.v1. The gateway has no database connection
// of its own: wallet and table stop serving when they lose the database, so one of them serving proves
// it answers; each also says, under DATABASE_WRITES_CHECK, whether its database took its last write.
import { DATABASE_WRITES_CHECK, type Logger } from "@pokerodds/common";
import type { Static } from "@sinclair/typebox";
import type { Handlers } from "../http/mount.js";
import type { HealthProbe, HealthProbes } from "../services.js";
import type { healthApi, HealthResponse } from "@pokerodds/api/health";

type Checks = Static<typeof HealthResponse>["checks"];
type ServiceCheck = "ok" | "not_serving" | "unreachable";

const PROBE_TIMEOUT_MS = 1000;
/**
 * One round of probes answers every health request made within this long of its start: the route is
 * public and exempt from the rate limits (a probe must never be refused), so a flood of it costs the
 * services one round a second, not one per request.
 */
const ROUND_REUSE_MS = 1000;

/**
 * The health answer is logged when it changes (a warning when a check fails, a line when all pass
 * again), not with each request: the route is open to anyone at any rate, and a line per failing
 * probe let one client write megabytes of log a second while a service was down.
 */
export function healthRoutes(probes: HealthProbes, logger: Logger): Handlers<typeof healthApi> {
  let round: { startedAt: number; checks: Promise<Checks> } | undefined;
  let lastProblem: string | undefined;
  const logChange = (checks: Checks) => {
    const problem = problemOf(checks);
    if (problem === lastProblem) return checks;
    lastProblem = problem;
    if (problem) logger.warn({ checks }, `health: ${problem}`);
    else logger.info({ checks }, "health: every check passes again");
    return checks;
  };
  return {
    getHealth: async (_req, res) => {
      const now = Date.now();
      if (!round || now - round.startedAt >= ROUND_REUSE_MS) {
        round = { startedAt: now, checks: probeAll(probes).then(logChange) };
      }
      const checks = await round.checks;
      const error = problemOf(checks);
      if (error === undefined) res.json({ status: "ok", checks });
      else res.status(503).json({ status: "unavailable", checks, error });
    },
  };
}

/** "wallet not serving, database unavailable", or nothing when every check passes. */
function problemOf(checks: Checks): string | undefined {
  const down = Object.entries(checks).filter(([, value]) => value !== "ok");
  if (down.length === 0) return undefined;
  return down.map(([name, value]) => `${name} ${value.replace("_", " ")}`).join(", ");
}

async function probeAll(probes: HealthProbes): Promise<Checks> {
  const [odds, wallet, table, walletWrites, tableWrites] = await Promise.all([
    ask(probes.odds),
    ask(probes.wallet),
    ask(probes.table),
    refusesWrites(probes.wallet),
    refusesWrites(probes.table),
  ]);
  const database = databaseCheck([
    { check: wallet, refusesWrites: walletWrites },
    { check: table, refusesWrites: tableWrites },
  ]);
  return { odds, wallet, table, database };
}

/** Never throws: a probe that fails counts as unreachable. */
async function ask(probe: HealthProbe): Promise<ServiceCheck> {
  const answer = await probe.check("", PROBE_TIMEOUT_MS).catch(() => "UNREACHABLE" as const);
  return answer === "SERVING" ? "ok" : answer === "NOT_SERVING" ? "not_serving" : "unreachable";
}

/**
 * Only NOT_SERVING says the writes fail: no answer says nothing, nor does a replica that has not
 * probed its database yet, which answers that it does not know the key (UNREACHABLE here).
 */
async function refusesWrites(probe: HealthProbe): Promise<boolean> {
  const answer = await probe.check(DATABASE_WRITES_CHECK, PROBE_TIMEOUT_MS).catch(() => "UNREACHABLE" as const);
  return answer === "NOT_SERVING";
}

/** Read only when a service that serves says its database refuses its writes (each has its own database). */
function databaseCheck(services: { check: ServiceCheck; refusesWrites: boolean }[]): Checks["database"] {
  const serving = services.filter(({ check }) => check === "ok");
  if (serving.length > 0) return serving.some((service) => service.refusesWrites) ? "read_only" : "ok";
  return services.some(({ check }) => check === "not_serving") ? "unavailable" : "unknown";
}
