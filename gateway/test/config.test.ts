import { ConfigError } from "@pokerodds/common";
import test, { type ExecutionContext } from "ava";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { readBackendTls, readConfig } from "../src/config.js";

test("defaults: port 8080, local services, the development issuer under ./data", (t) => {
  t.deepEqual(readConfig({}), {
    port: 8080,
    host: "127.0.0.1",
    metrics: { port: 9464, host: "127.0.0.1" },
    oddsAddress: "127.0.0.1:50051",
    walletAddress: "127.0.0.1:50052",
    tableAddress: "127.0.0.1:50053",
    auth: { mode: "development", dataDir: resolve("data"), issuer: "pokerodds-dev", audience: "pokerodds-api" },
    // The repository's web/dist, next to gateway/ (found from this module, wherever the process starts).
    webRoot: resolve(import.meta.dirname, "../../web/dist"),
    oidcClientId: undefined,
    auditDeadlineMs: 600_000,
  });
});

test("every variable is honoured", (t) => {
  const config = readConfig({
    PORT: "9000",
    METRICS_PORT: "9100",
    METRICS_HOST: "0.0.0.0",
    ODDS_ADDR: "odds:1",
    WALLET_ADDR: "wallet:2",
    TABLE_ADDR: "table:3",
    AUTH_JWKS_URL: "https://idp.example.com/.well-known/jwks.json",
    AUTH_ISSUER: "https://idp.example.com/",
    AUTH_AUDIENCE: "pokerodds",
    WEB_ROOT: "/srv/web",
    AUTH_CLIENT_ID: "web-client",
    AUDIT_DEADLINE_S: "1200",
  });
  t.like(config, {
    webRoot: "/srv/web",
    oidcClientId: "web-client",
    port: 9000,
    metrics: { port: 9100, host: "0.0.0.0" },
    oddsAddress: "odds:1",
    walletAddress: "wallet:2",
    tableAddress: "table:3",
    auditDeadlineMs: 1_200_000,
  });
  t.deepEqual(config.auth, {
    mode: "remote",
    jwksUrl: new URL("https://idp.example.com/.well-known/jwks.json"),
    issuer: "https://idp.example.com/",
    audience: "pokerodds",
  });
  t.like(readConfig({ DATA_DIR: "/var/lib/x", AUTH_ISSUER: "i", AUTH_AUDIENCE: "a" }).auth, {
    mode: "development",
    dataDir: "/var/lib/x",
    issuer: "i",
    audience: "a",
  });
});

test("a real identity provider needs its issuer and audience, and https", (t) => {
  const url = "https://idp.example.com/jwks";
  t.throws(() => readConfig({ AUTH_JWKS_URL: url, AUTH_AUDIENCE: "a" }), {
    instanceOf: ConfigError,
    message: /AUTH_ISSUER/,
  });
  t.throws(() => readConfig({ AUTH_JWKS_URL: url, AUTH_ISSUER: "i" }), {
    instanceOf: ConfigError,
    message: /AUTH_AUDIENCE/,
  });
  const both = { AUTH_ISSUER: "i", AUTH_AUDIENCE: "a" };
  t.throws(() => readConfig({ ...both, AUTH_JWKS_URL: "http://idp.example.com/jwks" }), { instanceOf: ConfigError });
  t.throws(() => readConfig({ ...both, AUTH_JWKS_URL: "not a url" }), { instanceOf: ConfigError });
  t.is(readConfig({ ...both, AUTH_JWKS_URL: "http://localhost:8081/jwks" }).auth.mode, "remote");
  t.throws(() => readConfig({ PORT: "http" }), { instanceOf: ConfigError });
  t.throws(() => readConfig({ AUDIT_DEADLINE_S: "0" }), { instanceOf: ConfigError });
});

test("the services' TLS files are required, all three (the services refuse plaintext)", (t) => {
  const files = { TLS_CA_FILE: "/tls/ca.crt", TLS_CERT_FILE: "/tls/tls.crt", TLS_KEY_FILE: "/tls/tls.key" };
  t.like(readBackendTls(files), { caFile: "/tls/ca.crt", certFile: "/tls/tls.crt", keyFile: "/tls/tls.key" });
  t.throws(() => readBackendTls({}), {
    instanceOf: ConfigError,
    message: /TLS_CA_FILE, TLS_CERT_FILE and TLS_KEY_FILE/,
  });
  t.throws(() => readBackendTls({ ...files, TLS_KEY_FILE: "" }), { instanceOf: ConfigError });
});

/** The gateway's process started with `env` (TLS_* only as given), to its exit; and its fatal line's message. */
function startGateway(env: NodeJS.ProcessEnv, t: ExecutionContext) {
  const dataDir = mkdtempSync(join(tmpdir(), "gateway-config-"));
  t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith("TLS_")));
  const run = spawnSync(
    process.execPath,
    ["--import=tsx/esm", fileURLToPath(new URL("../src/main.ts", import.meta.url))],
    {
      encoding: "utf8",
      env: { ...inherited, DATA_DIR: dataDir, PORT: "0", METRICS_PORT: "0", LOG_LEVEL: "info", ...env },
      timeout: 20_000,
    },
  );
  const fatal = run.stdout
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as { level: number; msg: string })
    .find((line) => line.level === 60);
  return { status: run.status, output: run.stdout + run.stderr, fatal: fatal?.msg ?? "" };
}

test("a gateway started without TLS_* stops at once (exit 1, one fatal line) instead of calling in plaintext", (t) => {
  const run = startGateway({}, t);
  t.is(run.status, 1, run.output);
  t.regex(run.fatal, /TLS_CA_FILE, TLS_CERT_FILE and TLS_KEY_FILE must be set/);
});

test("a bad edge setting stops the gateway as any bad setting does: exit 1, its message the fatal line", (t) => {
  const tls = { TLS_CA_FILE: "/nowhere/ca.pem", TLS_CERT_FILE: "/nowhere/cert.pem", TLS_KEY_FILE: "/nowhere/key.pem" };
  for (const [name, value, message] of [
    ["RATE_LIMIT_PER_IP", "many", 'RATE_LIMIT_PER_IP must be a whole number, got "many"'],
    ["EVENTS_MAX_STREAMS", "6000", "EVENTS_MAX_STREAMS (6000) must be at most half of MAX_CONNECTIONS (10000)"],
  ] as const) {
    const run = startGateway({ ...tls, [name]: value }, t);
    t.is(run.status, 1, run.output);
    // Not "uncaught error: exiting" with a stack: read before the first line that could throw it.
    t.true(run.fatal.startsWith(message), run.output);
  }
});

test("AUTH_CLIENT_ID needs a real identity provider, whose issuer is a URL", (t) => {
  t.throws(() => readConfig({ AUTH_CLIENT_ID: "web" }), {
    instanceOf: ConfigError,
    message: /AUTH_CLIENT_ID .*AUTH_JWKS_URL/,
  });
  // A typo in the provider's variable left the development issuer on, refusing every real token.
  t.throws(() => readConfig({ AUTH_JWKS_URI: "https://idp.example.com/jwks", AUTH_CLIENT_ID: "web" }), {
    instanceOf: ConfigError,
  });
  const remote = { AUTH_JWKS_URL: "https://idp.example.com/jwks", AUTH_AUDIENCE: "api", AUTH_CLIENT_ID: "web" };
  t.throws(() => readConfig({ ...remote, AUTH_ISSUER: "pokerodds" }), {
    instanceOf: ConfigError,
    message: /AUTH_ISSUER/,
  });
  t.is(readConfig({ ...remote, AUTH_ISSUER: "https://idp.example.com/" }).oidcClientId, "web");
  // Without a client id the issuer is only the tokens' iss, any string.
  t.is(readConfig({ ...remote, AUTH_CLIENT_ID: "", AUTH_ISSUER: "pokerodds" }).auth.issuer, "pokerodds");
});
