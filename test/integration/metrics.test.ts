// Every process of the stack answers Prometheus scrapes on its own admin port.
import test from "ava";
import { startTestStack } from "../helpers/stack.js";
import { devToken } from "../helpers/tokens.js";

test("each service and the gateway serve their metrics", async (t) => {
  const stack = await startTestStack();
  t.teardown(() => stack.stop());
  const token = await devToken(stack.dataDir, "metrics-player");
  const deal = await fetch(`${stack.url}/api/deal`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: "{}",
  });
  t.is(deal.status, 200);
  // Methods nobody serves are counted under one label, not a series each.
  for (const method of ["PROPFIND", "MKCOL", "PURGE"]) {
    t.true((await fetch(`${stack.url}/api/deal`, { method })).status >= 400, method);
  }

  const scraped = new Map<string, string>();
  for (const { name, url } of stack.metricsUrls()) {
    const response = await fetch(url);
    t.is(response.status, 200, `${name} metrics`);
    scraped.set(name, await response.text());
  }
  t.deepEqual([...scraped.keys()].sort(), ["gateway", "odds", "table", "wallet"]);
  for (const [name, body] of scraped) t.regex(body, /^process_cpu_seconds_total /m, `${name} has process metrics`);
  t.regex(scraped.get("odds")!, /^grpc_server_handling_seconds_count\{rpc="Deal",code="OK"\} 1$/m);
  t.regex(
    scraped.get("gateway")!,
    /^http_server_request_duration_seconds_count\{method="POST",route="\/api\/deal",status="200"\} 1$/m,
  );
  t.regex(
    scraped.get("gateway")!,
    /^http_server_request_duration_seconds_count\{method="other",route="\/api\/deal",status="405"\} 3$/m,
  );
  t.notRegex(scraped.get("gateway")!, /method="(PROPFIND|MKCOL|PURGE)"/);
  t.regex(scraped.get("table")!, /^# TYPE table_bets_accepted_total counter$/m);
  t.regex(scraped.get("table")!, /^# TYPE table_transfers_pending gauge$/m);
});
