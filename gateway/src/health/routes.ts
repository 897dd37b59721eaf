// GET /api/health (public): asks each service's grpc.health.v1. The gateway has no database connection
// of its own: wallet and table stop serving when they lose the database, so one of them serving proves
// it answers.
import type { Logger } from "@pokerodds/common";
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
  const [odds, wallet, table] = await Promise.all([ask(probes.odds), ask(probes.wallet), ask(probes.table)]);
  return { odds, wallet, table, database: databaseCheck(wallet, table) };
}

/** Never throws: a probe that fails counts as unreachable. */
async function ask(probe: HealthProbe): Promise<ServiceCheck> {
  const answer = await probe.check("", PROBE_TIMEOUT_MS).catch(() => "UNREACHABLE" as const);
  return answer === "SERVING" ? "ok" : answer === "NOT_SERVING" ? "not_serving" : "unreachable";
}

function databaseCheck(wallet: ServiceCheck, table: ServiceCheck): Checks["database"] {
  if (wallet === "ok" || table === "ok") return "ok";
  return wallet === "not_serving" || table === "not_serving" ? "unavailable" : "unknown";
}
