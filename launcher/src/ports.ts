import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:net";

/**
 * Above 10080, the highest of the WHATWG Fetch standard's "bad ports": fetch() refuses them all
 * ("fetch failed"), so a stack given 10080 never answered a test's health check.
 */
const ABOVE_FETCH_BAD_PORTS = 10_081;

/**
 * Linux's default ephemeral range starts here: assumed where the range cannot be read (a sandbox
 * hiding /proc/sys), so ports still come from below it.
 */
const LINUX_DEFAULT_EPHEMERAL_LOW = 32_768;

/**
 * Below the kernel's ephemeral range, so a port we hand out cannot be taken meanwhile by a process
 * that binds port 0 (FerretDB, a test's server, a client socket), which the OS serves from that range.
 * Declared after the constants it reads (read before their declaration, they throw).
 */
const CANDIDATES = candidateRange();

/** Every port here is on loopback, where the stack's processes listen. */
const HOST = "127.0.0.1";

/**
 * Finds `count` distinct free ports on loopback, held open together so they differ, none of them in
 * `avoid` (a port the caller has chosen but not bound yet). Another process could still take one
 * before our child binds it: a race made rare by choosing at random outside the ephemeral range.
 */
export async function freePorts(count: number, { avoid = [] }: { avoid?: readonly number[] } = {}): Promise<number[]> {
  const held: Server[] = [];
  const found: number[] = [];
  try {
    for (let attempt = 0; found.length < count && attempt < 100 * count; attempt++) {
      const port = CANDIDATES && CANDIDATES.from + Math.floor(Math.random() * (CANDIDATES.to - CANDIDATES.from));
      const server = await listen(port ?? 0).catch(() => undefined);
      if (!server) continue;
      // Held even when avoided, so that the OS does not offer it again.
      held.push(server);
      const bound = (server.address() as { port: number }).port;
      if (!avoid.includes(bound)) found.push(bound);
    }
    if (found.length < count) throw new Error(`could not find ${count} free ports`);
    return found;
  } finally {
    await Promise.all(held.map(close));
  }
}

/** [from, to) below the ephemeral range; undefined (ask the OS) where that range leaves no room. */
function candidateRange(): { from: number; to: number } | undefined {
  const low = ephemeralLow() ?? LINUX_DEFAULT_EPHEMERAL_LOW;
  return low > 12_000 ? { from: ABOVE_FETCH_BAD_PORTS, to: low } : undefined;
}

function ephemeralLow(): number | undefined {
  try {
    const low = Number(readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8").trim().split(/\s+/)[0]);
    return Number.isInteger(low) ? low : undefined;
  } catch {
    return undefined;
  }
}

export async function freePort(): Promise<number> {
  const [port] = await freePorts(1);
  return port!;
}

/** Whether `port` can be bound now: a second stack on the same port is caught before anything starts. */
export async function isPortFree(port: number): Promise<boolean> {
  try {
    await close(await listen(port));
    return true;
  } catch {
    return false;
  }
}

function listen(port: number): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(port, HOST, () => resolve(server));
  });
}

function close(server: Server): Promise<void> {
  return new Promise((resolve) => server.close(() => resolve()));
}
