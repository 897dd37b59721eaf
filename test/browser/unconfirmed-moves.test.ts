// Moves whose outcome the page did not learn, in a real headless Chromium against the scripted API
// behind a stand-in for the table service's idempotency (page.route): each answer is stored under its
// Idempotency-Key and answered again for that key, and on cue a move is made but answered 503, or a
// resend is refused 429 before any key is looked up (as the gateway's rate limits do). What is
// checked is the money: a move tried again is made once, and a new move is never taken for the old.
import test from "ava";
import type { Page } from "playwright-core";
import { signIn, waitForState } from "./helpers/client.js";
import { tableState } from "./helpers/scripted-api.js";
import { useScriptedBrowser } from "./helpers/scripted-browser.js";

const scripted = useScriptedBrowser(test);

type Fault = "made, answered 503" | "refused 429";

const jsonAnswer = (status: number, body: unknown) => ({
  status,
  contentType: "application/json",
  body: JSON.stringify(body),
});

/** Table 1's money moves as the table service keys them; `faults` come first, one per request. */
async function keyedTable(page: Page) {
  const answers = new Map<string, { status: number; body: string }>();
  const faults: Fault[] = [];
  const sent: { move: string; key: string }[] = [];
  await page.route(/\/api\/tables\/1\/(sit|topup|bet|leave)$/, async (route) => {
    const move = new URL(route.request().url()).pathname.split("/").at(-1)!;
    const key = route.request().headers()["idempotency-key"] ?? "";
    sent.push({ move, key });
    const fault = faults.shift();
    if (fault === "refused 429") return route.fulfill(jsonAnswer(429, { error: "too many requests; try again later" }));
    const first = answers.get(key);
    if (first) return route.fulfill({ status: first.status, contentType: "application/json", body: first.body });
    const response = await route.fetch();
    const body = await response.text();
    answers.set(key, { status: response.status(), body });
    if (fault === "made, answered 503") {
      return route.fulfill(jsonAnswer(503, { error: "table service unavailable: the move may still be made" }));
    }
    return route.fulfill({ status: response.status(), contentType: "application/json", body });
  });
  const keysOf = (move: string) => sent.filter((s) => s.move === move).map((s) => s.key);
  return { faults, keysOf };
}

/** Eve at table 1 (seated, 100.00; her account 1,000.00) at `state`, on a page of her own. */
async function eveAtTable(state: Parameters<typeof tableState>) {
  const api = scripted.api;
  Object.assign(api, { state: tableState(...state), account: 1000, bets: [] });
  await Promise.all(scripted.opened.map((earlier) => earlier.page.goto("about:blank")));
  const { page } = await scripted.openPage({ width: 1280, height: 900 });
  const table = await keyedTable(page);
  await page.goto("/");
  await signIn(page, "eve");
  await page.goto("/#/table/1");
  await waitForState(page, state[0]);
  return { page, ...table };
}

const UNCONFIRMED = /may or may not have been made/;

async function says(page: Page, text: RegExp | string): Promise<void> {
  await page.getByText(text).first().waitFor();
}

async function topUp(page: Page, expected: RegExp | string): Promise<void> {
  await page.getByRole("button", { name: "Top up" }).click();
  await says(page, expected);
}

test.serial("a top-up made but not confirmed, done again, is made once; the one after is a new top-up", async (t) => {
  const { page, faults, keysOf } = await eveAtTable(["STATUS_START", -1, []]);
  faults.push("made, answered 503");
  await topUp(page, UNCONFIRMED);
  t.is(scripted.api.account, 950);
  await topUp(
    page,
    "The top-up that was not confirmed is made, once (this was not a second one): it left seat 150.00, account 950.00.",
  );
  t.is(scripted.api.account, 950, "not made twice");
  await topUp(page, "Topped up: seat 200.00, account 900.00.");
  t.is(scripted.api.account, 900, "a second top-up, made");
  const [first, again, next] = keysOf("topup");
  t.is(again, first);
  t.not(next, first);
});

test.serial("a bet not confirmed whose resend meets a 429 is still sent under its key: one bet", async (t) => {
  const { page, faults, keysOf } = await eveAtTable(["STATUS_HOLE", 0, []]);
  faults.push("made, answered 503", "refused 429");
  const form = page.getByTestId("bet-1");
  await form.getByLabel("Stake on hand 2").fill("10");
  const bet = form.getByRole("button");
  for (const answer of [UNCONFIRMED, /too many requests/i, /The bet that was not confirmed is made, once/]) {
    await bet.click();
    await says(page, answer);
  }
  t.is(scripted.api.bets.length, 1);
  t.is(new Set(keysOf("bet")).size, 1);
});

test.serial("a leave not confirmed, then a new seat: the next leave is a new one, and the player leaves", async (t) => {
  const { page, faults, keysOf } = await eveAtTable(["STATUS_START", -1, []]);
  faults.push("made, answered 503");
  await page.getByRole("button", { name: "Leave the table" }).click();
  await says(page, UNCONFIRMED);
  // The table read after it shows she left: she sits down again, then leaves.
  await page.getByLabel("Buy-in amount").fill("100");
  await page.getByRole("button", { name: "Sit down" }).click();
  await says(page, "Seated at seat 1 with 100.00.");
  await page.getByRole("button", { name: "Leave the table" }).click();
  await says(page, /^You left the table: 100\.00 returned/);
  t.false(
    scripted.api.state.seats.some((seat) => seat.playerId === "eve"),
    "she left",
  );
  const [first, next] = keysOf("leave");
  t.not(next, first);
});

test.serial("a move not confirmed keeps its key when the player goes to the lobby and back", async (t) => {
  const { page, faults, keysOf } = await eveAtTable(["STATUS_START", -1, []]);
  faults.push("made, answered 503");
  await topUp(page, UNCONFIRMED);
  await page.getByRole("link", { name: "Lobby" }).click();
  await page.getByRole("heading", { level: 1, name: "Lobby" }).waitFor();
  await page.goto("/#/table/1");
  await waitForState(page, "STATUS_START");
  await topUp(page, /The top-up that was not confirmed is made, once/);
  t.is(scripted.api.account, 950);
  t.is(new Set(keysOf("topup")).size, 1);
});
