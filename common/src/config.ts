// Reading the environment once, strictly: a misconfigured process should refuse to start,
// not run with a silently wrong value.

export class ConfigError extends Error {}

type Env = Record<string, string | undefined>;

export function envString(name: string, fallback?: string, env: Env = process.env): string {
  const value = env[name];
  if (value !== undefined && value !== "") return value;
  if (fallback !== undefined) return fallback;
  throw new ConfigError(`${name} must be set`);
}

export function envOptional(name: string, env: Env = process.env): string | undefined {
  const value = env[name];
  return value === undefined || value === "" ? undefined : value;
}

export function envInt(
  name: string,
  fallback: number,
  { min = 0, max = Number.MAX_SAFE_INTEGER } = {},
  env: Env = process.env,
): number {
  const raw = env[name];
  if (raw === undefined || raw === "") return fallback;
  if (!/^\d+$/.test(raw)) throw new ConfigError(`${name} must be a whole number, got ${JSON.stringify(raw)}`);
  const value = Number(raw);
  if (value < min || value > max) throw new ConfigError(`${name} must be between ${min} and ${max}, got ${value}`);
  return value;
}

export function envPort(name: string, fallback: number, env: Env = process.env): number {
  return envInt(name, fallback, { min: 0, max: 65535 }, env);
}

/** A switch: "1" on, "0" or unset off; anything else stops the process. */
export function envFlag(name: string, env: Env = process.env): boolean {
  const value = envOptional(name, env);
  if (value !== undefined && value !== "0" && value !== "1")
    throw new ConfigError(`${name} must be 0 or 1, got ${JSON.stringify(value)}`);
  return value === "1";
}

/** Reads the process's configuration; a bad value is logged as fatal and ends the process (exit 1). */
export function configOrExit<T>(logger: { fatal(message: string): void }, read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    logger.fatal(error.message);
    process.exit(1);
  }
}
