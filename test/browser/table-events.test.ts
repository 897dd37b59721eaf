// How the client follows a table's event stream when the stream misbehaves, in a real headless
// Chromium against a scripted API (helpers/scripted-api.ts): refused with 429 it polls state instead
// and tries again; a stream that drops mid-game is reopened with Last-Event-ID; every stream request
// carries the bearer token (EventSource could not, which is why the client reads it with fetch).
import test from "ava";
import type { Browser } from "playwright-core";
import { launchBrowser, openPage, screenshot } from "./helpers/browser.js";
import { signIn, waitForState } from "./helpers/client.js";
import { startScriptedApi, tableState, type ScriptedApi } from "./helpers/scripted-api.js";

let browser: Browser | undefined;
let api: ScriptedApi | undefined;

test.before(async () => {
  browser = await launchBrowser();
  api = await startScriptedApi(tableState("STATUS_START", -1, []));
});

test.after.always(async () => {
  await browser?.close();
  await api?.close();
});

test("a refused stream falls back to polling; a dropped one resumes from its last event id", async (t) => {
  t.timeout(5 * 60_000);
  if (!browser || !api) throw new Error("the browser or the scripted API did not start");
  const watched = await openPage(browser, api.url, { width: 375, height: 812 });
  const { page } = watched;
  const mode = (name: string) => page.locator(`[data-testid="live-mode"][data-mode="${name}"]`);
  try {
    api.nextStreams.push(429);
    // The lobby shows the account even when the seats cannot be read (the table service down).
    api.seatsFailures = 1;
    await page.goto("/");
    await signIn(page, "eve");
    await page.getByTestId("my-seats-unavailable").waitFor();
    await page.goto("/#/table/1");
    await waitForState(page, "STATUS_START");
    await mode("polling").waitFor();
    await page.getByTestId("live-mode").getByText("too many event streams").waitFor();

    // The next try gets a stream: its events replace polling.
    await api.streamOpen();
    await mode("live").waitFor();
    api.push(7, tableState("STATUS_HOLE", 0, []));
    await waitForState(page, "STATUS_HOLE");
    api.push(8, tableState("STATUS_FLOP", 1, ["Ah", "7c", "2d"]));
    await waitForState(page, "STATUS_FLOP");
    t.is(await page.getByTestId("board").locator("[data-card]").count(), 3);

    // The stream ends (its replica died): the client polls meanwhile, then asks again from event 8.
    const before = api.eventRequests.length;
    api.dropStream();
    await api.streamOpen();
    await mode("live").waitFor();
    t.is(api.eventRequests.length, before + 1);
    t.is(api.eventRequests.at(-1)?.lastEventId, "8", "the reconnect names the last event seen");
    api.push(9, tableState("STATUS_TURN", 2, ["Ah", "7c", "2d", "Ks"]));
    await waitForState(page, "STATUS_TURN");
    await screenshot(page, "11-events-resumed");

    // The stream is refused for a while, and one poll fails: its problem shows until a poll succeeds.
    api.nextStreams.push(...Array<number>(10).fill(429));
    api.stateFailures = 1;
    api.dropStream();
    const outage = page.getByTestId("live-mode").getByText("table service unavailable");
    await outage.waitFor();
    await outage.waitFor({ state: "detached" });
    t.regex(await page.getByTestId("live-mode").innerText(), /every 2 seconds/, "still polling, the stream refused");

    t.is(api.eventRequests[0]?.lastEventId, undefined, "the first stream starts afresh");
    t.true(
      api.eventRequests.every((request) => request.authorization === "Bearer scripted-token"),
      "every stream request carries the token",
    );
    t.deepEqual(watched.problems, []);
  } finally {
    await watched.context.close();
  }
});
