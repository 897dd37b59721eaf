// Ports handed to children come from below the kernel's ephemeral range, where no process binding
// port 0 and no client socket is given one.
import test from "ava";
import { readFileSync } from "node:fs";
import { freePorts } from "../src/ports.js";

const ephemeralLow = Number(readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8").trim().split(/\s+/)[0]);

test("free ports are distinct, above fetch's bad ports and below the ephemeral range", async (t) => {
  const ports = await freePorts(50);
  t.is(new Set(ports).size, 50);
  for (const port of ports) {
    t.true(port >= 10_081, `${port}`);
    t.true(port < ephemeralLow, `${port} (ephemeral range from ${ephemeralLow})`);
  }
});

test("a port the caller avoids (one it chose but has not bound yet) is never handed out", async (t) => {
  const avoid = Array.from({ length: 10_000 }, (_, i) => 10_081 + i);
  const ports = await freePorts(50, { avoid });
  t.is(new Set(ports).size, 50);
  for (const port of ports) t.false(avoid.includes(port), `${port}`);
});
