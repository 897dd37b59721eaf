import { DATABASE_WRITES_CHECK } from "@pokerodds/common";
import test from "ava";
import { pino } from "pino";
import { Writable } from "node:stream";
import type { HealthProbe } from "../src/services.js";
import { serving, startApp } from "./helpers/app.js";

const notServing: HealthProbe = { check: async () => "NOT_SERVING" };
const unreachable: HealthProbe = { check: async () => "UNREACHABLE" };
const throwing: HealthProbe = { check: () => Promise.reject(new Error("boom")) };
/** Serves, and says its database refused its last write (DATABASE_WRITES_CHECK), or does not know the key. */
const writesFailing: HealthProbe = {
  check: async (service) => (service === DATABASE_WRITES_CHECK ? "NOT_SERVING" : "SERVING"),
};
const writesUnknown: HealthProbe = {
  check: async (service) => (service === DATABASE_WRITES_CHECK ? "UNREACHABLE" : "SERVING"),
};

async function health(probes: { odds: HealthProbe; wallet: HealthProbe; table: HealthProbe }) {
  const app = await startApp({ health: probes });
  try {
    const response = await fetch(`${app.url}/api/health`);
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  } finally {
    await app.close();
  }
}

test("everything serving: 200 ok", async (t) => {
  t.deepEqual(await health({ odds: serving, wallet: serving, table: serving }), {
    status: 200,
    body: { status: "ok", checks: { odds: "ok", wallet: "ok", table: "ok", database: "ok" } },
  });
});

test("database down (wallet and table not serving): 503 naming it", async (t) => {
  t.deepEqual(await health({ odds: serving, wallet: notServing, table: notServing }), {
    status: 503,
    body: {
      status: "unavailable",
      checks: { odds: "ok", wallet: "not_serving", table: "not_serving", database: "unavailable" },
      error: "wallet not serving, table not serving, database unavailable",
    },
  });
});

test("odds unreachable: 503, database still ok", async (t) => {
  t.deepEqual(await health({ odds: unreachable, wallet: serving, table: serving }), {
    status: 503,
    body: {
      status: "unavailable",
      checks: { odds: "unreachable", wallet: "ok", table: "ok", database: "ok" },
      error: "odds unreachable",
    },
  });
});

test("one of wallet and table serving proves the database", async (t) => {
  const { status, body } = await health({ odds: serving, wallet: notServing, table: serving });
  t.is(status, 503);
  t.deepEqual(body.checks, { odds: "ok", wallet: "not_serving", table: "ok", database: "ok" });
});

test("a serving service whose database refuses writes: 503, database read only; only such a service's NOT_SERVING counts", async (t) => {
  t.deepEqual(await health({ odds: serving, wallet: serving, table: writesFailing }), {
    status: 503,
    body: {
      status: "unavailable",
      checks: { odds: "ok", wallet: "ok", table: "ok", database: "read_only" },
      error: "database read only",
    },
  });
  const notServingWritesFailing: HealthProbe = { check: async () => "NOT_SERVING" };
  const { body } = await health({ odds: serving, wallet: notServingWritesFailing, table: serving });
  t.is((body.checks as Record<string, string>).database, "ok", "the wallet's own answer is its not_serving");
  // A replica of a release before the key, or one that has not probed yet, does not know it.
  t.deepEqual(await health({ odds: serving, wallet: writesUnknown, table: writesUnknown }), {
    status: 200,
    body: { status: "ok", checks: { odds: "ok", wallet: "ok", table: "ok", database: "ok" } },
  });
});

test("nothing answering: the database is unknown; a probe that throws counts as unreachable", async (t) => {
  const { status, body } = await health({ odds: throwing, wallet: unreachable, table: throwing });
  t.is(status, 503);
  t.deepEqual(body.checks, { odds: "unreachable", wallet: "unreachable", table: "unreachable", database: "unknown" });
});

test("probes are asked about the whole server, and wallet and table about their writes, with a 1 s deadline, in parallel", async (t) => {
  const asked: unknown[][] = [];
  // Probes at once, and the most at once: asked one after another, each would be alone.
  let running = 0;
  let most = 0;
  const slow: HealthProbe = {
    check: async (...args) => {
      asked.push(args);
      most = Math.max(most, ++running);
      await new Promise((resolve) => setTimeout(resolve, 600));
      running--;
      return "SERVING";
    },
  };
  const app = await startApp({ health: { odds: slow, wallet: slow, table: slow } });
  t.teardown(() => app.close());
  t.is((await fetch(`${app.url}/api/health`)).status, 200);
  t.is(most, 5, "the five questions were asked together");
  t.deepEqual(asked, [
    ["", 1000],
    ["", 1000],
    ["", 1000],
    [DATABASE_WRITES_CHECK, 1000],
    [DATABASE_WRITES_CHECK, 1000],
  ]);
});

test.serial("one round of probes answers every request within a second of its start, then a new round", async (t) => {
  let rounds = 0;
  let answer: "SERVING" | "NOT_SERVING" = "SERVING";
  const counted: HealthProbe = {
    check: async () => {
      rounds++;
      return answer;
    },
  };
  // The route's clock, held still and then moved on by the test: no request's timing decides. Serial:
  // the clock is the process's, and ava runs serial tests before the others.
  const realNow = Date.now;
  let now = realNow();
  Date.now = () => now;
  t.teardown(() => (Date.now = realNow));
  const app = await startApp({ health: { odds: counted, wallet: serving, table: serving } });
  t.teardown(() => app.close());
  const status = async () => (await fetch(`${app.url}/api/health`)).status;
  t.deepEqual(await Promise.all([status(), status(), status()]), [200, 200, 200]);
  answer = "NOT_SERVING";
  now += 999;
  t.is(await status(), 200, "the round of the first requests still answers");
  t.is(rounds, 1);
  now += 1;
  t.is(await status(), 503);
  t.is(rounds, 2);
});

test.serial("the health answer is logged when it changes, not with each request", async (t) => {
  const lines: { level: number; msg: string }[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()) as { level: number; msg: string });
      done();
    },
  });
  let answer: "SERVING" | "NOT_SERVING" = "SERVING";
  const odds: HealthProbe = { check: async () => answer };
  // A new round of probes each time, by the route's clock (serial: it is the process's).
  const realNow = Date.now;
  let now = realNow();
  Date.now = () => now;
  t.teardown(() => (Date.now = realNow));
  const app = await startApp({ health: { odds, wallet: serving, table: serving }, logger: pino(sink) });
  t.teardown(() => app.close());
  const rounds = async (count: number) => {
    for (let i = 0; i < count; i++) {
      now += 1000;
      await fetch(`${app.url}/api/health`);
    }
  };
  await rounds(3);
  answer = "NOT_SERVING";
  await rounds(3);
  answer = "SERVING";
  await rounds(3);
  t.deepEqual(
    lines.map(({ level, msg }) => ({ level, msg })),
    [
      { level: 40, msg: "health: odds not serving" },
      { level: 30, msg: "health: every check passes again" },
    ],
  );
});
