// Starts the baseline server (hello-server.ts) in its own process, like the gateway, and says where.
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

export async function startHelloServer(): Promise<{ url: string; stop: () => void }> {
  const child = spawn(
    process.execPath,
    ["--import=tsx/esm", fileURLToPath(new URL("./hello-server.ts", import.meta.url))],
    {
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
  const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
  const { value: line } = (await lines.next()) as { value: string };
  const { port } = JSON.parse(line) as { port: number };
  return { url: `http://127.0.0.1:${port}`, stop: () => child.kill("SIGTERM") };
}
