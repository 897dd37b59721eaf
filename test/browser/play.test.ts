// The web client in a real headless Chromium, against the whole stack with the gateway serving the
// client at "/": two players in two browser profiles play a game through the screens (one of them
// on a 375px phone viewport), and what the screens show is checked to the cent against the API.
// Every screen is also checked by axe-core and photographed into test-artifacts/browser/.
import test, { type ExecutionContext } from "ava";
import type { Browser, Page } from "playwright-core";
import { Api, cents, type TableState } from "../helpers/api.js";
import { eventually } from "../helpers/poll.js";
import { stackPerFile } from "../helpers/stack.js";
import { expectAccessible, launchBrowser, openPage, screenshot, type Watched } from "./helpers/browser.js";
import {
  advance,
  bet,
  centsIn,
  coveredControls,
  handToBackIndex,
  openTable,
  signIn,
  signInWithKeyboard,
  sit,
  waitForState,
} from "./helpers/client.js";

const file = stackPerFile(test, { env: { TABLE_COUNT: "3" } });
let browser: Browser | undefined;
const opened: Watched[] = [];

test.before(async () => {
  browser = await launchBrowser();
});

test.after.always(async () => {
  await browser?.close();
});

async function open(viewport: { width: number; height: number }): Promise<Watched> {
  if (!browser) throw new Error("the browser did not start");
  const watched = await openPage(browser, file.stack.url, viewport);
  opened.push(watched);
  return watched;
}

const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 375, height: 812 };

/** Nothing went wrong inside any page: no uncaught error, no console error, no CSP refusal. */
function expectNoPageProblems(t: ExecutionContext, ...pages: Watched[]): void {
  for (const page of pages) t.deepEqual(page.problems, [], "the page reported no error");
}

const seatCents = (state: TableState, playerId: string): number => {
  const seat = state.seats.find((s) => s.playerId === playerId);
  if (!seat) throw new Error(`${playerId} is not seated at table ${state.tableId}`);
  return cents(seat.seatBalance);
};

async function seatShownTo(page: Page, playerId: string): Promise<number> {
  return centsIn(page.getByTestId("seats").locator(`tr[data-player="${playerId}"] [data-testid="seat-balance"]`));
}

test.serial("the gateway serves the client at / with a strict content security policy", async (t) => {
  const response = await fetch(`${file.stack.url}/`);
  t.is(response.status, 200);
  t.regex(response.headers.get("content-type") ?? "", /^text\/html/);
  t.regex(await response.text(), /<div id="app"><\/div>/);
  const policy = response.headers.get("content-security-policy") ?? "";
  t.regex(policy, /default-src 'self'/);
  t.notRegex(policy, /unsafe-inline|unsafe-eval/);
  const config = await fetch(`${file.stack.url}/api/client-config`);
  t.deepEqual(await config.json(), { devSignIn: true }, "the development issuer is on: dev sign-in offered");
});

test.serial("two players play a whole game; the watcher sees every move live, to the cent", async (t) => {
  t.timeout(15 * 60_000);
  const stack = file.stack;
  const api = new Api(stack.url, stack.dataDir);
  const table = 2;
  const alice = await open(DESKTOP);
  const bob = await open(PHONE);

  await alice.page.goto("/");
  await alice.page.getByRole("heading", { name: "Development sign-in" }).waitFor();
  await screenshot(alice.page, "01-sign-in");
  await expectAccessible(t, alice.page, "sign-in");
  await signIn(alice.page, "alice-web");
  await bob.page.goto("/");
  await signIn(bob.page, "bob-web");
  t.is(await centsIn(alice.page.getByTestId("account-balance")), 100_000, "the welcome 1,000.00");
  await screenshot(alice.page, "02-lobby");
  await screenshot(bob.page, "02-lobby-phone");
  await expectAccessible(t, alice.page, "lobby");
  await expectAccessible(t, bob.page, "lobby (phone)");

  await openTable(alice.page, table);
  await openTable(bob.page, table);
  await sit(alice.page, "200");
  await sit(bob.page, "150.50");
  await alice.page.getByTestId("seats").locator('tr[data-player="bob-web"]').waitFor();
  await bob.page.getByTestId("seats").locator('tr[data-player="alice-web"]').waitFor();
  t.is(await seatShownTo(bob.page, "bob-web"), 15_050);
  await bob.page.getByLabel("Top-up amount").fill("25.25");
  await bob.page.getByRole("button", { name: "Top up" }).click();
  await bob.page.getByRole("status").filter({ hasText: "Topped up" }).waitFor();
  t.is(await centsIn(bob.page.getByTestId("my-seat-balance")), 17_575);
  await eventually("alice sees bob's top-up", async () =>
    (await seatShownTo(alice.page, "bob-web")) === 17_575 ? true : undefined,
  );
  // Live, not polling: the second player's page follows the table's event stream.
  await bob.page
    .locator('[data-testid="live-mode"][data-mode="live"]')
    .waitFor()
    .catch(async (error: unknown) => {
      throw new Error(`${String(error)}\nthe page says: ${await bob.page.getByTestId("live-mode").innerText()}`);
    });
  await screenshot(alice.page, "03-table-seated");
  await expectAccessible(t, alice.page, "table");

  const stages = [
    { button: "Deal the hole cards", state: "STATUS_HOLE", name: "hole" },
    { button: "Deal the flop", state: "STATUS_FLOP", name: "flop" },
    { button: "Deal the turn", state: "STATUS_TURN", name: "turn" },
  ];
  const player = await api.player("alice-web");
  // The body of every advance alice's page sends: only the deal carries a client seed.
  const advances: { from?: unknown; clientSeed?: string }[] = [];
  alice.page.on("request", (request) => {
    if (request.method() === "POST" && request.url().endsWith(`/api/tables/${table}/advance`)) {
      advances.push(request.postDataJSON() as (typeof advances)[number]);
    }
  });
  let holeCommitment: string | null = null;
  let clientSeed = "";
  let betsPlaced = 0;
  for (const [i, stage] of stages.entries()) {
    await advance(alice.page, stage.button, stage.state);
    await waitForState(bob.page, stage.state);
    if (stage.name === "hole") {
      // The commitment is on screen before the first bet, as the API states it, for both players.
      holeCommitment = (await player.readState(table)).seedCommitment;
      t.regex(holeCommitment ?? "", /^[0-9a-f]{64}$/);
      for (const page of [alice.page, bob.page]) {
        t.is(
          await page.getByTestId("fairness").getByTestId("seed-commitment").getAttribute("data-value"),
          holeCommitment,
        );
      }
      // Alice's deal sent a fresh random client seed, which the table mixed into the deck and shows.
      clientSeed = advances[0]?.clientSeed ?? "";
      t.regex(clientSeed, /^[0-9a-f]{32}$/, "the deal sends a client seed");
      t.is((await player.readState(table)).clientSeed, clientSeed, "the table shows the client seed sent");
      for (const page of [alice.page, bob.page]) {
        t.is(await page.getByTestId("fairness").getByTestId("client-seed").getAttribute("data-value"), clientSeed);
      }
      t.is(
        await alice.page.getByTestId("fairness").getByTestId("client-seed-source").innerText(),
        "The one this page sent with its deal.",
      );
      t.is(
        await bob.page.getByTestId("fairness").getByTestId("client-seed-source").innerText(),
        "Chosen by the player who dealt.",
      );
    }
    const hand = await handToBackIndex(alice.page);
    if (hand === null) {
      // About one game in 360 the turn (one in 20,000 the flop) ties every hand, so no hand has a win
      // chance: the page offers no bet, as the API takes none.
      const state = await player.readState(table);
      t.false(
        state.handOdds.some((p) => p.bettingStage === state.bettingStage && p.odds > 0),
        `${stage.name}: no bet offered`,
      );
      continue;
    }
    const odds = await bet(alice.page, hand, "10");
    t.true(odds > 0, `the ${stage.name} bet shows its odds`);
    // The watcher's screen gets the bet without a reload: its row appears in the bets table.
    const row = bob.page.getByTestId("bets").locator('tbody tr[data-player="alice-web"]').nth(betsPlaced++);
    await row.waitFor();
    t.regex(await row.innerText(), new RegExp(`${stage.name}\\s+${hand + 1}\\s+10\\.00\\s+${odds.toFixed(1)}`, "i"));
    await screenshot(alice.page, `04-${i + 1}-${stage.name}`);
    await screenshot(bob.page, `04-${i + 1}-${stage.name}-phone`);
    await expectAccessible(t, alice.page, `table at the ${stage.name}`);
  }
  const beforeRiver = await player.readState(table);
  t.is(beforeRiver.bets.length, betsPlaced);
  t.is(await centsIn(alice.page.getByTestId("my-seat-balance")), seatCents(beforeRiver, "alice-web"));

  await advance(alice.page, "Deal the river", "STATUS_RIVER");
  await waitForState(bob.page, "STATUS_RIVER");
  const river = await player.readState(table);
  t.is(river.gameState, "STATUS_RIVER");
  const paid = seatCents(river, "alice-web") - seatCents(beforeRiver, "alice-web");
  t.is(await centsIn(alice.page.getByTestId("my-payout")), paid, "the payout on screen is what the seat received");
  t.is(await centsIn(alice.page.getByTestId("my-seat-balance")), seatCents(river, "alice-web"));
  t.is(await seatShownTo(bob.page, "alice-web"), seatCents(river, "alice-web"), "the watcher sees the same");
  t.is(await centsIn(alice.page.getByTestId("my-stakes")), betsPlaced * 1_000);
  // The message at the top is now the game's result for the player, to the cent.
  const result = await alice.page.getByRole("status").filter({ hasText: "settled" }).innerText();
  const told =
    betsPlaced === 0
      ? "You placed no bets this game."
      : `You staked ${(betsPlaced * 10).toFixed(2)} and were paid ${(paid / 100).toFixed(2)}`;
  t.true(result.includes(told), result);
  // The seed is revealed at the river, and the page's own verifier (WebCrypto, no server call)
  // checks it against the commitment it kept since the hole, and the cards on screen against it.
  t.is(river.seedCommitment, holeCommitment, "the API kept its commitment");
  t.is(river.clientSeed, clientSeed, "and the client seed");
  t.deepEqual(
    advances.map((sent) => sent.clientSeed),
    [clientSeed, undefined, undefined, undefined],
    "only the deal sent a client seed",
  );
  for (const page of [alice.page, bob.page]) {
    const fairness = page.getByTestId("fairness");
    t.is(await fairness.getByTestId("server-seed").getAttribute("data-value"), river.serverSeed);
    await fairness.getByRole("button", { name: "Verify this game" }).click();
    const verdict = fairness.locator('[data-testid="verify"][data-verdict]');
    await verdict.waitFor();
    t.is(await verdict.getAttribute("data-verdict"), "verified", await verdict.innerText());
    t.regex(await verdict.innerText(), /Verified: the cards were fixed before any bet\./);
    t.regex(await verdict.innerText(), new RegExp(`client seed ${clientSeed}`), "the verdict names the client seed");
  }
  await screenshot(alice.page, "05-river");
  await screenshot(bob.page, "05-river-phone");
  await expectAccessible(t, alice.page, "table at the river");
  await expectAccessible(t, bob.page, "table at the river (phone)");

  for (const [watched, id] of [
    [alice, "alice-web"],
    [bob, "bob-web"],
  ] as const) {
    await watched.page.getByRole("button", { name: "Leave the table" }).click();
    await watched.page.getByRole("status").filter({ hasText: "You left the table" }).waitFor();
    await watched.page.getByRole("link", { name: "Lobby" }).click();
    const profile = await (await api.player(id)).profile();
    t.is(profile.status, 200);
    const shown = watched.page.getByTestId("account-balance");
    await shown.waitFor();
    t.is(await centsIn(shown), cents(profile.body.accountBalance), `${id}'s account on screen is the profile's`);
  }
  t.is(
    await centsIn(alice.page.getByTestId("account-balance")),
    100_000 - betsPlaced * 1_000 + paid,
    "alice's account: the welcome less her stakes plus her payout",
  );
  await alice.page
    .getByTestId("active-tables")
    .getByRole("link", { name: `Table ${table}` })
    .waitFor();
  await screenshot(alice.page, "06-lobby-after");

  // The account statement follows the balance back to the welcome credit, newest first.
  await alice.page.getByRole("button", { name: "Show recent movements" }).click();
  const rows = alice.page.getByTestId("statement").locator("tbody tr");
  await rows.first().waitFor();
  const balanceAfter = (row: ReturnType<typeof rows.nth>) => centsIn(row.locator("td").nth(3));
  t.is(
    await balanceAfter(rows.first()),
    await centsIn(alice.page.getByTestId("account-balance")),
    "the newest entry's balance is the account's",
  );
  t.regex(await rows.first().innerText(), new RegExp(`Chips back from table ${table}\\b`));
  t.regex(await rows.nth(1).innerText(), new RegExp(`Buy-in at table ${table}\\b`));
  t.regex(await rows.last().innerText(), /Welcome credit\s+\+1,000\.00\s+1,000\.00/);
  await screenshot(alice.page, "07-lobby-statement");
  await expectAccessible(t, alice.page, "lobby with the account statement");
  expectNoPageProblems(t, alice, bob);
});

test.serial(
  "keyboard sign-in; refusals appear as messages: a NACK naming the amounts, a bad amount, a missing table",
  async (t) => {
    const carol = await open(PHONE);
    await carol.page.goto("/");
    await signInWithKeyboard(carol.page, "carol-web");
    await openTable(carol.page, 3);
    await carol.page.getByLabel("Buy-in amount").fill("5000");
    await carol.page.getByRole("button", { name: "Sit down" }).click();
    const alert = carol.page.getByRole("alert").filter({ hasText: /\S/ });
    await alert.waitFor();
    const nack = await alert.innerText();
    t.is(nack, "Your account does not cover this buy-in of 5,000.00.", "the NACK's message, with the amount");
    t.notRegex(nack, /at \S+:\d+|Error:/, "no stack trace");
    await screenshot(carol.page, "07-nack");
    await expectAccessible(t, carol.page, "table with a NACK");

    await carol.page.getByLabel("Buy-in amount").fill("12.345");
    await carol.page.getByRole("button", { name: "Sit down" }).click();
    await carol.page.getByRole("alert").filter({ hasText: "at most 2 decimals" }).waitFor();

    // Not seated: no control that could only be refused (advance is for seated players).
    t.is(await carol.page.getByRole("button", { name: "Deal the hole cards" }).count(), 0);
    await carol.page.getByTestId("advance-hint").waitFor();
    const refused = carol.page.getByRole("alert").filter({ hasText: "at most 2 decimals" });
    // The message is in the page's flow, under the form it is about, and covers no control wherever
    // the player scrolls.
    const box = await refused.boundingBox();
    const form = await carol.page.getByTestId("sit-form").boundingBox();
    t.true(box !== null && form !== null && box.y >= form.y + form.height, `the message at ${JSON.stringify(box)}`);
    await carol.page.evaluate("window.scrollTo(0, document.body.scrollHeight)");
    await carol.page.waitForFunction("window.scrollY > 0");
    t.deepEqual(await coveredControls(carol.page), []);

    // A table that does not exist says so, and is not asked for again every 2 s.
    await carol.page.goto("/#/table/99999");
    const closed = carol.page.locator('[data-testid="live-mode"][data-mode="closed"]');
    await closed.waitFor();
    t.regex(await closed.innerText(), /^There is no table 99999\.\s+Back to the lobby$/);
    expectNoPageProblems(t, carol);
  },
);

test.serial("the last player leaving mid-game is told the game was void and the open bets refunded", async (t) => {
  const frank = await open(DESKTOP);
  const api = new Api(file.stack.url, file.stack.dataDir);
  await frank.page.goto("/");
  await signIn(frank.page, "frank-web");
  await openTable(frank.page, 1);
  await sit(frank.page, "100");
  // By keyboard: the button keeps the focus through the move, so Enter again deals the next stage.
  await frank.page.getByRole("button", { name: "Deal the hole cards" }).focus();
  await frank.page.keyboard.press("Enter");
  await waitForState(frank.page, "STATUS_HOLE");
  await frank.page.getByRole("button", { name: "Deal the flop" }).waitFor();
  t.is(await frank.page.evaluate("document.activeElement?.textContent"), "Deal the flop", "the focus stayed");
  const hand = await handToBackIndex(frank.page);
  if (hand === null) throw new Error("no hand takes a bet at the hole");
  await bet(frank.page, hand, "10");
  await frank.page.getByRole("button", { name: "Leave the table" }).click();
  const left = frank.page.getByRole("status").filter({ hasText: "You left the table" });
  await left.waitFor();
  t.regex(await left.innerText(), /90\.00 returned.*game was void: your open bets \(10\.00\) were refunded/s);
  const profile = await (await api.player("frank-web")).profile();
  t.is(cents(profile.body.accountBalance), 100_000, "the seat and the refunded bet are back in the account");
  expectNoPageProblems(t, frank);
});

test.serial("a deal pressed on a screen that is behind deals nothing: the game never skips a stage", async (t) => {
  const gina = await open(DESKTOP);
  const api = new Api(file.stack.url, file.stack.dataDir);
  const hank = await api.player("hank-web");
  const table = 3;
  // Gina's screen follows the table by polling its state (no event stream), until told to stop.
  let stale = false;
  await gina.page.route(
    (url) => /^\/api\/tables\/\d+\/(state|events)$/.test(url.pathname),
    (route) => (stale || route.request().url().endsWith("/events") ? route.abort() : route.continue()),
  );
  await gina.page.goto("/");
  await signIn(gina.page, "gina-web");
  await openTable(gina.page, table);
  await sit(gina.page, "100");
  await hank.balance(); // opens the account
  t.is((await hank.sit(table, 100)).body.acknowledgement, "ACK");
  await gina.page.getByTestId("seats").locator('tr[data-player="hank-web"]').waitFor();
  stale = true;
  // A read sent before this point could still bring the next state: wait for one that fails.
  await gina.page.waitForEvent("requestfailed", (request) => request.url().endsWith("/state"));
  const hole = await hank.advance(table);
  t.is(hole.body.gameState, "STATUS_HOLE");
  await gina.page.getByRole("button", { name: "Deal the hole cards" }).click();
  await waitForState(gina.page, "STATUS_HOLE");
  const now = await hank.readState(table);
  t.is(now.gameState, "STATUS_HOLE", "Gina's deal from the start dealt nothing more: the hole stays open for bets");
  t.deepEqual(now.hands, hole.body.hands);
  stale = false;
  await advance(gina.page, "Deal the flop", "STATUS_FLOP");
  t.is((await hank.readState(table)).gameState, "STATUS_FLOP");

  // A bet at the flop's odds on a screen that is behind: Hank deals the turn first, so no bet is
  // placed at odds the table no longer offers.
  const hand = await handToBackIndex(gina.page);
  if (hand === null) throw new Error("no hand takes a bet at the flop");
  stale = true;
  await gina.page.waitForEvent("requestfailed", (request) => request.url().endsWith("/state"));
  t.is((await hank.advance(table)).body.gameState, "STATUS_TURN");
  const form = gina.page.getByTestId(`bet-${hand}`);
  await form.getByLabel(`Stake on hand ${hand + 1}`).fill("10");
  await form.getByRole("button", { name: /^Bet at / }).click();
  const refused = gina.page.getByRole("alert").filter({ hasText: "no bet placed" });
  await refused.waitFor();
  t.regex(await refused.innerText(), /^The table moved on to the turn of game .* before this bet at the flop.*\.$/);
  const turn = await hank.readState(table);
  t.deepEqual(turn.bets, [], "no bet at the turn's odds either");
  t.is(seatCents(turn, "gina-web"), 10_000);
  stale = false;

  // The refusal is about that game: once the next game is dealt it leaves the screen.
  for (const to of ["STATUS_RIVER", "STATUS_SETUP", "STATUS_HOLE"])
    t.is((await hank.advance(table)).body.gameState, to);
  await waitForState(gina.page, "STATUS_HOLE");
  await refused.waitFor({ state: "detached" });
  const next = await hank.readState(table);
  t.not(next.gameId, turn.gameId);

  // The lobby says where Gina's chips are.
  await gina.page.getByRole("link", { name: "Lobby" }).click();
  const chips = gina.page.getByTestId("my-seats").locator(`li[data-table="${table}"] [data-testid="seat-chips"]`);
  t.is(await centsIn(chips), seatCents(next, "gina-web"));
});

test.serial("deal and bulk screens: a stand-alone deal, and stepping through generated games", async (t) => {
  t.timeout(10 * 60_000);
  const dave = await open(DESKTOP);
  await dave.page.goto("/");
  await signIn(dave.page, "dave-web");

  await dave.page.getByRole("link", { name: "Deal" }).click();
  await dave.page.getByLabel("Number of hands").selectOption("6");
  await dave.page.getByRole("button", { name: "Deal", exact: true }).click();
  const result = dave.page.getByTestId("deal-result");
  await result.waitFor();
  t.is(await result.locator("tbody tr").count(), 6);
  t.is(await result.locator('[data-status="IN_PLAY_FAVOURITE"]').count(), 1, "one favourite");
  t.regex(await result.innerText(), /40 cards remain/);
  t.is(await verifyShown(dave.page, "Verify this deal"), "verified", "the deal's hands and rest of the deck");
  await screenshot(dave.page, "08-deal");
  await expectAccessible(t, dave.page, "deal");

  await dave.page.getByRole("link", { name: "Bulk games" }).click();
  await dave.page.getByLabel("Games (1–200)").fill("500");
  await dave.page.getByRole("button", { name: "Generate" }).click();
  const error = dave.page.getByRole("alert").filter({ hasText: /\S/ });
  await error.waitFor();
  t.regex(
    await error.innerText(),
    /^Games must be an integer from 1 to 200/,
    "the API's 400 message, in the form's words",
  );

  await dave.page.getByLabel("Games (1–200)").fill("5");
  await dave.page.getByLabel("Hands").selectOption("4");
  await dave.page.getByRole("button", { name: "Generate" }).click();
  const batch = dave.page.getByTestId("bulk-batch");
  await batch.getByRole("heading", { name: /^Game 1 of 5: BULK-0*1$/ }).waitFor();
  const board = batch.getByRole("group", { name: /^Board at the / });
  t.is(await board.locator("[data-card]").count(), 0, "no board card at the hole");
  await batch.getByRole("button", { name: "Flop" }).click();
  t.is(await board.locator("[data-card]").count(), 3);
  await batch.getByRole("button", { name: "River" }).click();
  t.is(await board.locator("[data-card]").count(), 5);
  t.regex(await batch.locator("tbody").innerText(), /Winner/);
  t.is(await verifyShown(dave.page, "Verify this game"), "verified", "the bulk game's hands and whole board");
  await screenshot(dave.page, "09-bulk-river");
  await expectAccessible(t, dave.page, "bulk");
  await batch.getByRole("button", { name: "Next game" }).press("Enter");
  await batch.getByRole("heading", { name: /^Game 2 of 5: BULK-0*2$/ }).waitFor();
  t.is(await batch.locator('[data-testid="verify"][data-verdict]').count(), 0, "a new game's verdict starts blank");
  t.is(await verifyShown(dave.page, "Verify this game"), "verified");
  expectNoPageProblems(t, dave);
});

/** Presses a Verify button of the page's one provably fair section; the verdict it shows. */
async function verifyShown(page: Page, button: string): Promise<string | null> {
  const fairness = page.getByTestId("fairness");
  await fairness.getByRole("button", { name: button }).click();
  const verdict = fairness.locator('[data-testid="verify"][data-verdict]');
  await verdict.waitFor();
  const shown = await verdict.getAttribute("data-verdict");
  if (shown !== "verified") throw new Error(`the page did not verify: ${await verdict.innerText()}`);
  return shown;
}

test.after.always(async () => {
  await Promise.all(opened.map((w) => w.context.close().catch(() => {})));
});
