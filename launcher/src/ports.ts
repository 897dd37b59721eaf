import { createServer, type Server } from "node:net";

/**
 * Asks the OS for `count` distinct free ports on `host`. All are held open together so they
 * differ; another process could still take one before our child binds it, a race accepted here.
 */
export async function freePorts(count: number, host = "127.0.0.1"): Promise<number[]> {
  const servers: Server[] = [];
  try {
    for (let i = 0; i < count; i++) servers.push(await listen(0, host));
    return servers.map((server) => (server.address() as { port: number }).port);
  } finally {
    await Promise.all(servers.map(close));
  }
}

export async function freePort(host = "127.0.0.1"): Promise<number> {
  const [port] = await freePorts(1, host);
  return port!;
}

/** Whether `port` can be bound now: a second stack on the same port is caught before anything starts. */
export async function isPortFree(port: number, host = "127.0.0.1"): Promise<boolean> {
  try {
    await close(await listen(port, host));
    return true;
  } catch {
    return false;
  }
}

function listen(port: number, host: string): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(port, host, () => resolve(server));
  });
}

function close(server: Server): Promise<void> {
  return new Promise((resolve) => server.close(() => resolve()));
}
