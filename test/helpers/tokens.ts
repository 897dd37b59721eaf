// Tokens from the stack's own development issuer (its key lives under the stack's DATA_DIR).
import { DEV_AUDIENCE, DEV_ISSUER, loadOrCreateDevKey, signDevToken } from "@pokerodds/common/dev-issuer";

type Role = "BASIC_USER" | "PAYING_USER" | "ANON_USER" | "ADMIN";

export async function devToken(dataDir: string, playerId: string, role?: Role): Promise<string> {
  const key = await loadOrCreateDevKey(dataDir);
  return signDevToken(key, {
    playerId,
    ...(role ? { role } : {}),
    email: `${playerId}@example.com`,
    name: playerId,
    ttlSeconds: 3600,
    issuer: DEV_ISSUER,
    audience: DEV_AUDIENCE,
  });
}
