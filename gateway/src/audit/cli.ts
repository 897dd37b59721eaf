// `npm run audit`: asks the running stack's GET /api/admin/audit and prints what it says.
//
//   exit 0  the audit is clean
//   exit 1  the audit ran and something is off (mismatch) or still in flight (pending)
//   exit 2  no audit: the stack cannot be reached, refused the token, a service is down, or the
//           answer is not an audit report
//
// AUDIT_URL (default http://127.0.0.1:${PORT:-8080}) names the gateway; AUDIT_TOKEN an ADMIN bearer
// token. Without AUDIT_TOKEN and with AUTH_JWKS_URL unset, a short-lived ADMIN token is signed with the
// development issuer's key under DATA_DIR, which must already exist (the stack creates it).
import { Ajv } from "ajv";
import { access } from "node:fs/promises";
import { devKeyPath, loadOrCreateDevKey, signDevToken } from "../auth/dev-issuer.js";
import { readDevIssuerSettings } from "../config.js";
import { AuditReport, type AuditReportBody } from "../contract/audit.js";
import { formatAuditSummary } from "./summary.js";

export const EXIT_CLEAN = 0;
export const EXIT_NOT_CLEAN = 1;
export const EXIT_NO_AUDIT = 2;

export const AUDIT_PATH = "/api/admin/audit";
/** The gateway's own audit deadline is 30 s. */
const REQUEST_TIMEOUT_MS = 40_000;
const TOKEN_TTL_S = 300;

type Env = Record<string, string | undefined>;

export interface CliIo {
  out(text: string): void;
  err(text: string): void;
}

class NoAudit extends Error {}

const isValidReport = new Ajv({ strict: false, allErrors: false }).compile<AuditReportBody>(AuditReport);

export function auditUrl(env: Env): URL {
  const base = env.AUDIT_URL || `http://127.0.0.1:${env.PORT || "8080"}`;
  let url: URL;
  try {
    url = new URL(base);
  } catch {
    throw new NoAudit(`AUDIT_URL is not a URL: ${JSON.stringify(base)}`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new NoAudit("AUDIT_URL must be http or https");
  if (!url.pathname.endsWith(AUDIT_PATH)) url.pathname = url.pathname.replace(/\/+$/, "") + AUDIT_PATH;
  return url;
}

async function tokenFor(env: Env): Promise<string> {
  if (env.AUDIT_TOKEN) return env.AUDIT_TOKEN;
  if (env.AUTH_JWKS_URL) {
    throw new NoAudit("AUTH_JWKS_URL is set: set AUDIT_TOKEN to an ADMIN token of that identity provider");
  }
  const settings = readDevIssuerSettings(env);
  try {
    await access(devKeyPath(settings.dataDir));
  } catch {
    throw new NoAudit(
      `no development issuer key under ${settings.dataDir}: run with the stack's DATA_DIR, or set AUDIT_TOKEN`,
    );
  }
  return signDevToken(await loadOrCreateDevKey(settings.dataDir), {
    playerId: "audit-cli",
    role: "ADMIN",
    name: "npm run audit",
    ttlSeconds: TOKEN_TTL_S,
    issuer: settings.issuer,
    audience: settings.audience,
  });
}

async function fetchReport(url: URL, token: string): Promise<AuditReportBody> {
  let response: Response;
  try {
    response = await fetch(url, {
      headers: { authorization: `Bearer ${token}`, accept: "application/json" },
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
  } catch (error) {
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
  return body;
}

/** Runs the command; resolves to its exit code. */
export async function runAuditCli(env: Env, args: readonly string[], io: CliIo): Promise<number> {
  const json = args.includes("--json");
  const unknown = args.filter((arg) => arg !== "--json");
  if (unknown.length > 0) {
    io.err(`usage: npm run audit [-- --json]   (unknown: ${unknown.join(" ")})`);
    return EXIT_NO_AUDIT;
  }
  try {
    const url = auditUrl(env);
    const report = await fetchReport(url, await tokenFor(env));
    io.out(json ? JSON.stringify(report, null, 2) : formatAuditSummary(report));
    return report.status === "clean" ? EXIT_CLEAN : EXIT_NOT_CLEAN;
  } catch (error) {
    if (!(error instanceof NoAudit)) throw error;
    io.err(`audit: ${error.message}`);
    return EXIT_NO_AUDIT;
  }
}
