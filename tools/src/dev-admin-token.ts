// The audit command's token when AUDIT_TOKEN is unset: a short-lived ADMIN token signed with the
// development issuer's key under DATA_DIR. The key must already exist (the stack creates it on first
// start): a missing one means the wrong DATA_DIR, and creating it would only make a token the stack
// refuses.
import { DEV_TOKEN_TTL_S, NoAudit, type Env } from "@pokerodds/audit/cli";
import { devKeyPath, loadOrCreateDevKey, signDevToken } from "@pokerodds/common/dev-issuer";
import { readDevIssuerSettings } from "@pokerodds/gateway/config";
import { access } from "node:fs/promises";

export async function devAdminToken(env: Env): Promise<string> {
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
    ttlSeconds: DEV_TOKEN_TTL_S,
    issuer: settings.issuer,
    audience: settings.audience,
  });
}
