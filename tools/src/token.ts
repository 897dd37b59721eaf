// `npm run token -- <playerId> [--role ADMIN] [--email x] [--name y] [--ttl 3600]`: prints a token of
// the local development issuer, and nothing else, on stdout. The issuer itself (its key under
// DATA_DIR, its settings and the roles) is the gateway's, which verifies these tokens.
import { envOptional } from "@pokerodds/common";
import { playerIdProblem } from "@pokerodds/common/limits";
import { devKeyPath, loadOrCreateDevKey, signDevToken } from "@pokerodds/common/dev-issuer";
import { isRole, ROLES } from "@pokerodds/api/players";
import { readDevIssuerSettings } from "@pokerodds/gateway/config";
import { parseArgsOnce } from "@pokerodds/common/args";
import { access } from "node:fs/promises";

const USAGE = `usage: npm run token -- <playerId> [--role ${ROLES.join("|")}] [--email x] [--name y] [--ttl seconds]`;
const MAX_TTL_S = 86_400;

function fail(message: string, code = 2): never {
  process.stderr.write(`${message}\n`);
  process.exit(code);
}

if (envOptional("AUTH_JWKS_URL") !== undefined) {
  fail("AUTH_JWKS_URL is set: tokens come from that identity provider, not from this command", 1);
}

let parsed;
try {
  parsed = parseArgsOnce({
    allowPositionals: true,
    options: {
      role: { type: "string" },
      email: { type: "string" },
      name: { type: "string" },
      ttl: { type: "string", default: "3600" },
    },
  });
} catch (error) {
  fail(`${(error as Error).message}\n${USAGE}`);
}
const { values, positionals } = parsed;
const [playerId, ...extra] = positionals;
if (!playerId || extra.length > 0) fail(USAGE);
const problem = playerIdProblem(playerId);
if (problem) fail(problem);
if (values.role !== undefined && !isRole(values.role)) fail(`--role must be one of ${ROLES.join(", ")}`);
const ttlSeconds = Number(values.ttl);
if (!/^\d+$/.test(values.ttl) || ttlSeconds < 1 || ttlSeconds > MAX_TTL_S) {
  fail(`--ttl must be whole seconds from 1 to ${MAX_TTL_S}`);
}

const settings = readDevIssuerSettings();
// Made here when the stack has not made it yet, which it then uses; under the wrong DATA_DIR a new
// key signs a token that the running stack refuses, so that is said.
const keyExisted = await access(devKeyPath(settings.dataDir)).then(
  () => true,
  () => false,
);
if (!keyExisted) {
  process.stderr.write(
    `no development issuer key was under ${settings.dataDir}: made one; a stack already running on another DATA_DIR refuses this token\n`,
  );
}
const token = await signDevToken(await loadOrCreateDevKey(settings.dataDir), {
  playerId,
  role: values.role,
  email: values.email,
  name: values.name,
  ttlSeconds,
  issuer: settings.issuer,
  audience: settings.audience,
});
process.stdout.write(`${token}\n`);
