// Under `npm start` nothing but the gateway's API is meant for other machines: every gRPC service
// and every metrics endpoint listens on 127.0.0.1, and the embedded database on no TCP port at all
// (a Unix socket in its own directory: it has no authentication). Read from the kernel's socket
// table (Linux).
import test from "ava";
import { readdir, readFile, readlink } from "node:fs/promises";
import { useTestStack } from "../helpers/stack.js";

/** inode -> "address:port" of every listening TCP socket (IPv4 and IPv6). */
async function listeningSockets(): Promise<Map<string, string>> {
  const sockets = new Map<string, string>();
  for (const [file, v6] of [
    ["/proc/net/tcp", false],
    ["/proc/net/tcp6", true],
  ] as const) {
    const lines = (await readFile(file, "utf8").catch(() => "")).split("\n").slice(1);
    for (const line of lines) {
      const fields = line.trim().split(/\s+/);
      if (fields[3] !== "0A") continue; // LISTEN
      const [hex, port] = fields[1]!.split(":") as [string, string];
      sockets.set(fields[9]!, `${v6 ? ipv6(hex) : ipv4(hex)}:${parseInt(port, 16)}`);
    }
  }
  return sockets;
}

const ipv4 = (hex: string) => [3, 2, 1, 0].map((i) => parseInt(hex.slice(i * 2, i * 2 + 2), 16)).join(".");
const ipv6 = (hex: string) => (/^0+$/.test(hex) ? "::" : /^0{20}FFFF0000/i.test(hex) ? `::ffff:${hex.slice(24)}` : hex);

/** The listening addresses of one process. */
async function listensOf(pid: number, sockets: Map<string, string>): Promise<string[]> {
  const fds = await readdir(`/proc/${pid}/fd`).catch(() => []);
  const links = await Promise.all(fds.map((fd) => readlink(`/proc/${pid}/fd/${fd}`).catch(() => "")));
  return links.flatMap((link) => {
    const inode = /^socket:\[(\d+)\]$/.exec(link)?.[1];
    const address = inode && sockets.get(inode);
    return address ? [address] : [];
  });
}

test("npm start: the API and every gRPC and metrics port listen on 127.0.0.1 only, the database on no TCP port", async (t) => {
  const stack = await useTestStack(t);
  const sockets = await listeningSockets();
  let checked = 0;
  for (const { name, pid } of stack.children()) {
    const addresses = await listensOf(pid, sockets);
    if (name === "db") {
      t.deepEqual(addresses, [], "the database listens on its Unix socket only");
      continue;
    }
    t.true(addresses.length > 0, `${name} listens nowhere?`);
    for (const address of addresses) {
      t.true(address.startsWith("127.0.0.1:"), `${name} listens on ${address}`);
      checked++;
    }
  }
  // odds, wallet, table: gRPC + metrics; gateway: the API (HOST unset: loopback) + metrics.
  t.true(checked >= 8, `only ${checked} ports checked`);
});
