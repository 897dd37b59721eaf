import { ConfigError, envOptional, envPort, envString, tlsFilesFromEnv, type TlsFiles } from "@pokerodds/common";
import { dataDirFrom, DEFAULT_PORTS, defaultAddress } from "@pokerodds/common/stack-layout";
import { auditDeadlineMs } from "@pokerodds/audit";
import { readMetricsListen, type MetricsListen } from "@pokerodds/common/metrics";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { DEV_AUDIENCE, DEV_ISSUER } from "@pokerodds/common/dev-issuer";

type Env = Record<string, string | undefined>;

/** Where tokens come from: the real identity provider, or the local development issuer. */
export type AuthSettings =
  | { mode: "remote"; jwksUrl: URL; issuer: string; audience: string }
  | { mode: "development"; dataDir: string; issuer: string; audience: string };

export interface GatewayConfig {
  port: number;
  /** The API's listen address: loopback unless HOST says otherwise (Kubernetes sets 0.0.0.0). */
  host: string;
  /** Prometheus scrapes here, apart from the API port. */
  metrics: MetricsListen;
  oddsAddress: string;
  walletAddress: string;
  tableAddress: string;
  auth: AuthSettings;
  /** The built web client (`web/dist`), served at `/`. */
  webRoot: string;
  /** The identity provider's client id for the web client's OIDC sign-in (with AUTH_JWKS_URL). */
  oidcClientId?: string;
  /** GET /api/admin/audit's deadline (AUDIT_DEADLINE_S). */
  auditDeadlineMs: number;
}

// The same pattern as every service's config.ts (one interface, one readConfig(env)): alike on purpose.
export function readConfig(env: Env = process.env): GatewayConfig {
  const auth = readAuthSettings(env);
  return {
    port: envPort("PORT", DEFAULT_PORTS.gateway, env),
    host: envString("HOST", "127.0.0.1", env),
    metrics: readMetricsListen(9464, env),
    oddsAddress: envString("ODDS_ADDR", defaultAddress("odds"), env),
    walletAddress: envString("WALLET_ADDR", defaultAddress("wallet"), env),
    tableAddress: envString("TABLE_ADDR", defaultAddress("table"), env),
    auth,
    webRoot: resolve(envOptional("WEB_ROOT", env) ?? fileURLToPath(new URL("../../web/dist", import.meta.url))),
    oidcClientId: readOidcClientId(auth, env),
    auditDeadlineMs: auditDeadlineMs(env),
  };
}

/**
 * The gateway's certificate, key and CA for its calls to the services (TLS_*, as every service reads
 * them): required, as the services require theirs. Without them the gateway called in plaintext,
 * which every service refuses, so it answered 503 for ever without saying why; and it would have
 * taken whatever answered at the services' addresses for them, unauthenticated.
 */
export function readBackendTls(env: Env = process.env): TlsFiles {
  const tls = tlsFilesFromEnv(env);
  if (!tls) {
    throw new ConfigError(
      "TLS_CA_FILE, TLS_CERT_FILE and TLS_KEY_FILE must be set (mutual TLS to the odds, wallet and table services)",
    );
  }
  return tls;
}

/** AUTH_JWKS_URL names a real identity provider; without it the local development issuer signs. */
function readAuthSettings(env: Env = process.env): AuthSettings {
  const jwksUrl = envOptional("AUTH_JWKS_URL", env);
  if (jwksUrl === undefined) return readDevIssuerSettings(env);
  // A real identity provider names its own issuer and audience: guessing either would accept
  // tokens meant for another service.
  return {
    mode: "remote",
    jwksUrl: parseJwksUrl(jwksUrl),
    issuer: envString("AUTH_ISSUER", undefined, env),
    audience: envString("AUTH_AUDIENCE", undefined, env),
  };
}

/**
 * AUTH_CLIENT_ID: the web client's sign-in at the real identity provider, whose issuer it discovers
 * from AUTH_ISSUER. Without AUTH_JWKS_URL it was ignored and the gateway ran the development issuer,
 * refusing every token of the provider the operator meant; an issuer that is no URL stopped the
 * start with a bare "Invalid URL".
 */
function readOidcClientId(auth: AuthSettings, env: Env): string | undefined {
  const clientId = envOptional("AUTH_CLIENT_ID", env);
  if (clientId === undefined) return undefined;
  if (auth.mode !== "remote") {
    throw new ConfigError("AUTH_CLIENT_ID is set without AUTH_JWKS_URL: a sign-in needs the identity provider's keys");
  }
  if (!URL.canParse(auth.issuer)) {
    throw new ConfigError(
      `AUTH_ISSUER must be the identity provider's URL with AUTH_CLIENT_ID (its sign-in is found there), got ${JSON.stringify(auth.issuer)}`,
    );
  }
  return clientId;
}

export function readDevIssuerSettings(env: Env = process.env): Extract<AuthSettings, { mode: "development" }> {
  return {
    mode: "development",
    dataDir: dataDirFrom(env),
    issuer: envString("AUTH_ISSUER", DEV_ISSUER, env),
    audience: envString("AUTH_AUDIENCE", DEV_AUDIENCE, env),
  };
}

function parseJwksUrl(value: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError(`AUTH_JWKS_URL is not a URL: ${JSON.stringify(value)}`);
  }
  // Keys fetched in clear text could be swapped on the way; plain http only to this machine.
  const loopback = ["localhost", "127.0.0.1", "[::1]"].includes(url.hostname);
  if (url.protocol !== "https:" && !(url.protocol === "http:" && loopback)) {
    throw new ConfigError("AUTH_JWKS_URL must be an https URL (http only for localhost)");
  }
  return url;
}
