// `npm run audit`: asks the running stack's GET /api/admin/audit and prints what it says.
//
//   exit 0  the audit is clean
//   exit 1  the audit ran and something is off (mismatch) or still in flight (pending)
//   exit 2  no audit: the stack cannot be reached, refused the token, a service is down, or the
//           answer is not an audit report
//
// AUDIT_URL (default http://127.0.0.1:${PORT:-8080}) names the gateway; AUDIT_TOKEN an ADMIN bearer
// token. Without AUDIT_TOKEN and with AUTH_JWKS_URL unset, the caller's `devToken` provides a
// short-lived ADMIN token of the development issuer: the command's entry point (tools/src/audit.ts)
// signs one with the gateway's development issuer, which this package cannot import (the gateway
// depends on it).
import { DEFAULT_PORTS } from "@pokerodds/common/stack-layout";
import { ConfigError } from "@pokerodds/common";
import { Ajv } from "ajv";
import { auditDeadlineMs } from "./collect.js";
import { AuditReport, type AuditReportBody } from "./report.js";
import { formatAuditSummary } from "./summary.js";

const EXIT_CLEAN = 0;
const EXIT_NOT_CLEAN = 1;
export const EXIT_NO_AUDIT = 2;

const AUDIT_PATH = "/api/admin/audit";
/** Beyond the audit's deadline, for the answer to arrive. */
const ANSWER_MS = 10_000;
/** What a development token made for the command may last, at most. */
export const DEV_TOKEN_TTL_S = 300;

export type Env = Record<string, string | undefined>;

interface CliIo {
  out(text: string): void;
  err(text: string): void;
}

/**
 * A short-lived ADMIN token of the local development issuer (the stack's, under DATA_DIR), for when
 * AUDIT_TOKEN is unset and no real identity provider is configured. Throws NoAudit when it has none.
 */
export type DevTokenSigner = (env: Env) => Promise<string>;

/** Why there is no audit to show: exit 2 with this message. */
export class NoAudit extends Error {}

const isValidReport = new Ajv({ strict: false, allErrors: false }).compile<AuditReportBody>(AuditReport);

/**
 * `path` on the stack the admin commands talk to: AUDIT_URL (the stack's address, or its audit's,
 * as npm run audit has always taken it) or http://127.0.0.1:$PORT.
 */
export function stackUrl(env: Env, path: string): URL {
  const base = env.AUDIT_URL || `http://127.0.0.1:${env.PORT || DEFAULT_PORTS.gateway}`;
  let url: URL;
  try {
    url = new URL(base);
  } catch {
    throw new NoAudit(`AUDIT_URL is not a URL: ${JSON.stringify(base)}`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new NoAudit("AUDIT_URL must be http or https");
  // The ADMIN token crosses no network in the clear: plain http only to this machine.
  if (url.protocol === "http:" && !isLoopback(url.hostname)) {
    throw new NoAudit(
      `AUDIT_URL must be https for ${url.hostname}: the ADMIN token would cross the network in the clear`,
    );
  }
  const stackPath = url.pathname.endsWith(AUDIT_PATH) ? url.pathname.slice(0, -AUDIT_PATH.length) : url.pathname;
  url.pathname = stackPath.replace(/\/+$/, "") + path;
  return url;
}

const isLoopback = (host: string): boolean =>
  host === "localhost" || host === "[::1]" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);

/** The ADMIN token the admin commands send: AUDIT_TOKEN, else one of the local development issuer. */
export async function adminToken(env: Env, devToken: DevTokenSigner): Promise<string> {
  if (env.AUDIT_TOKEN) return env.AUDIT_TOKEN;
  if (env.AUTH_JWKS_URL) {
    throw new NoAudit("AUTH_JWKS_URL is set: set AUDIT_TOKEN to an ADMIN token of that identity provider");
  }
  return devToken(env);
}

async function fetchReport(url: URL, token: string, deadlineMs: number): Promise<AuditReportBody> {
  let response: Response;
  try {
    response = await fetch(url, {
      headers: { authorization: `Bearer ${token}`, accept: "application/json" },
      signal: AbortSignal.timeout(deadlineMs + ANSWER_MS),
    });
  } catch (error) {
    // Reached and not answered in time is not unreachable: a service behind the gateway is stuck.
    if ((error as Error).name === "TimeoutError") {
      throw new NoAudit(
        `no answer from the stack at ${url.origin} within ${(deadlineMs + ANSWER_MS) / 1000} s ` +
          `(AUDIT_DEADLINE_S and ${ANSWER_MS / 1000} s more): GET /api/health names a service that does not answer`,
      );
    }
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    const why = cause?.code ?? cause?.message ?? (error as Error).message;
    throw new NoAudit(`cannot reach the stack at ${url.origin}: ${why}`);
  }
  const text = await response.text().catch(() => "");
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  if (response.status !== 200) {
    const message = (body as { error?: unknown } | undefined)?.error;
    const why = typeof message === "string" ? message : text.slice(0, 200);
    const hint =
      response.status === 401 || response.status === 403
        ? " (an ADMIN token of the stack's issuer is needed)"
        : response.status === 503
          ? " (a service is down)"
          : "";
    throw new NoAudit(`${url.href} answered ${response.status}: ${why}${hint}`);
  }
  if (!isValidReport(body)) throw new NoAudit(`${url.href} did not answer with an audit report`);
  const contradiction = contradictionOf(body);
  if (contradiction) throw new NoAudit(`${url.href} answered a report that contradicts itself: ${contradiction}`);
  return body;
}

/** A report whose verdict its own findings deny: its exit code cannot be taken from its status. */
function contradictionOf({ status, clean, mismatches, unsettled }: AuditReportBody): string | null {
  if (clean !== (status === "clean")) return `status ${status}, but clean is ${clean}`;
  if (mismatches.length > 0 !== (status === "mismatch")) {
    return `status ${status}, but ${mismatches.length} mismatches`;
  }
  if (status === "clean" && unsettled.length > 0) return `status clean, but ${unsettled.length} unsettled findings`;
  return null;
}

/** How long the command waits for the gateway's audit, which has AUDIT_DEADLINE_S too. */
function waitMs(env: Env): number {
  try {
    return auditDeadlineMs(env);
  } catch (error) {
    if (error instanceof ConfigError) throw new NoAudit(error.message);
    throw error;
  }
}

/** Runs the command; resolves to its exit code. */
export async function runAuditCli(
  env: Env,
  args: readonly string[],
  io: CliIo,
  devToken: DevTokenSigner,
): Promise<number> {
  const json = args.includes("--json");
  // A repeated option is refused, as by every other command (tools/src/args.ts).
  const problems = [
    ...args.filter((arg) => arg !== "--json").map((arg) => `unknown: ${arg}`),
    ...(args.filter((arg) => arg === "--json").length > 1 ? ["--json given twice"] : []),
  ];
  if (problems.length > 0) {
    io.err(`usage: npm run audit [-- --json]   (${problems.join(", ")})`);
    return EXIT_NO_AUDIT;
  }
  try {
    const url = stackUrl(env, AUDIT_PATH);
    const report = await fetchReport(url, await adminToken(env, devToken), waitMs(env));
    io.out(json ? JSON.stringify(report, null, 2) : formatAuditSummary(report));
    return report.status === "clean" ? EXIT_CLEAN : EXIT_NOT_CLEAN;
  } catch (error) {
    if (!(error instanceof NoAudit)) throw error;
    io.err(`audit: ${error.message}`);
    return EXIT_NO_AUDIT;
  }
}
