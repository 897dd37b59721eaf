// Overload through the whole stack: a flooder gets fast 429s with Retry-After, never slow 503s.
// The odds service runs one worker with a queue of one task (ODDS_QUEUE_SIZE), so concurrent bulk
// requests find it full; the gateway's per-player limit is small so that it is reached quickly.
import test from "ava";
import { Api, errorOf, show } from "../helpers/api.js";
import { stackPerFile } from "../helpers/stack.js";

const PER_PLAYER = 20;
const file = stackPerFile(test, {
  env: {
    ODDS_WORKERS: "1",
    ODDS_QUEUE_SIZE: "1",
    BULK_MAX_CONCURRENT: "0",
    RATE_LIMIT_PER_PLAYER: String(PER_PLAYER),
    RATE_LIMIT_WINDOW_SECONDS: "60",
  },
});

test("a full odds worker queue: bulk requests beyond it get a fast 429 with Retry-After", async (t) => {
  const stack = await file.ready;
  const api = new Api(stack.url, stack.dataDir);
  const flooder = await api.player("flooder");
  const started = Date.now();
  const replies = await Promise.all(
    Array.from({ length: 6 }, () =>
      flooder.request("POST", "/api/games/bulk", { body: { numberOfGames: 200, numberOfHands: 4 } }),
    ),
  );
  const refused = replies.filter((reply) => reply.status === 429);
  t.log(replies.map((reply) => reply.status).join(" "), `${Date.now() - started} ms`);
  t.true(refused.length >= 1, replies.map(show).join("\n"));
  t.true(
    replies.some((reply) => reply.status === 200),
    "the first is served",
  );
  t.deepEqual(
    replies.filter((reply) => reply.status !== 200 && reply.status !== 429).map(show),
    [],
    "nothing else: no 5xx",
  );
  for (const reply of refused) t.is(errorOf(reply), "too many requests; try again later");
  // Headers: one more refused request, read with fetch directly.
  const blocker = flooder.request("POST", "/api/games/bulk", { body: { numberOfGames: 200, numberOfHands: 4 } });
  await new Promise((resolve) => setTimeout(resolve, 200));
  const response = await fetch(`${stack.url}/api/deal`, {
    method: "POST",
    headers: { authorization: `Bearer ${flooder.token}` },
  });
  if (response.status === 429) t.is(response.headers.get("retry-after"), "1");
  else t.log(`the queue had drained: deal answered ${response.status}`);
  await blocker;
});

test("the per-player rate limit: 429 with Retry-After once the budget is spent", async (t) => {
  const stack = await file.ready;
  const api = new Api(stack.url, stack.dataDir);
  const spammer = await api.player("spammer");
  for (let i = 0; i < PER_PLAYER; i++) {
    const reply = await spammer.state(1);
    t.is(reply.status, 200, show(reply));
  }
  const response = await fetch(`${stack.url}/api/tables/1/state`, {
    headers: { authorization: `Bearer ${spammer.token}` },
  });
  t.is(response.status, 429);
  t.true(Number(response.headers.get("retry-after")) >= 1);
  t.deepEqual(await response.json(), { error: "too many requests; try again later" });
  // Someone else still plays.
  t.is((await (await api.player("bystander")).state(1)).status, 200);
});
