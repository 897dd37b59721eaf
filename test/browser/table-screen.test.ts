// What the table screen tells a player, in a real headless Chromium against a scripted API
// (helpers/scripted-api.ts) that shows the states a test needs on cue: the result of a settled game,
// messages that never cover a control, why a hand takes no bet, what a stake would return, a table
// that does not exist, a feed that is down, the seat's controls laid out in one row, the account
// balance beside the seat's, refusals that name the amounts beside their form, the player's own
// stake on each hand, the mark of the player's own seat and bets, a 320 px wide screen that does
// not scroll sideways, and an advance's events that come after its answer, which do not show the
// state before it again.
import test, { type ExecutionContext } from "ava";
import { setTimeout as sleep } from "node:timers/promises";
import type { Locator, Page } from "playwright-core";
import type { TableState } from "../helpers/api.js";
import type { Watched } from "./helpers/browser.js";
import { newServerSeed } from "../../services/odds/src/domain/provably-fair.js";
import { advance, coveredControls, signIn, waitForState } from "./helpers/client.js";
import { committedState, showState, showStatesTogether, tableState } from "./helpers/scripted-api.js";
import { useScriptedBrowser } from "./helpers/scripted-browser.js";

const scripted = useScriptedBrowser(test);

const DESKTOP = { width: 1280, height: 900 };
const PHONE = { width: 375, height: 812 };
const BOARD = ["Ah", "7c", "2d", "Ks", "3h"];
type Bet = TableState["bets"][number];

const show = (page: Page, state: TableState) => showState(scripted.api, page, state);

/** Eve, seated at table 1 of the scripted API, following it live, on a page of her own. */
async function eveAtTable(viewport: { width: number; height: number }): Promise<Watched> {
  const api = scripted.api;
  api.state = tableState("STATUS_START", -1, []);
  api.account = 1000;
  // Earlier tests' pages stop following the table: their streams would hold the browser's few
  // connections to the scripted API (and one of them could get the events meant for this page).
  await Promise.all(scripted.opened.map((earlier) => earlier.page.goto("about:blank")));
  const watched = await scripted.openPage(viewport);
  await watched.page.goto("/");
  await signIn(watched.page, "eve");
  await watched.page.goto("/#/table/1");
  await waitForState(watched.page, "STATUS_START");
  await api.streamOpen();
  await watched.page.locator('[data-testid="live-mode"][data-mode="live"]').waitFor();
  return watched;
}

/** A game at the river: `winners` are WINNER (the rest LOSER), the hole's panels kept as history. */
function settled(gameId: string, bets: Bet[], winners: number[], seatBalance: number): TableState {
  const hole = tableState("STATUS_HOLE", 0, []);
  const river = tableState("STATUS_RIVER", -1, BOARD);
  const won = (handIndex: number) => winners.includes(handIndex);
  return {
    ...river,
    gameId,
    bets,
    seats: river.seats.map((seat) => ({ ...seat, seatBalance })),
    handOdds: [
      ...hole.handOdds,
      ...river.handOdds.map((panel) => ({
        ...panel,
        handStatus: won(panel.handIndex) ? ("WINNER" as const) : ("LOSER" as const),
        winPercentage: won(panel.handIndex) && winners.length === 1 ? 100 : 0,
        drawPercentage: won(panel.handIndex) && winners.length > 1 ? 100 : 0,
        odds: won(panel.handIndex) ? 1 : 0,
      })),
    ],
  };
}

const holeBet = (playerId: string, handIndex: number, betAmount: number, recordedOdds: number): Bet => ({
  playerId,
  bettingStage: 0,
  seatIndex: playerId === "eve" ? 1 : 2,
  handIndex,
  betAmount,
  recordedOdds,
});

test.serial("at the river the message at the top gives way to the player's result in that game", async (t) => {
  t.timeout(2 * 60_000);
  const { page } = await eveAtTable(DESKTOP);
  await show(page, tableState("STATUS_HOLE", 0, []));
  const form = page.getByTestId("bet-0");
  await form.getByLabel("Stake on hand 1").fill("15.50");
  await form.getByRole("button", { name: /^Bet at 2\.4/ }).click();
  await page.getByRole("status").filter({ hasText: "Bet 15.50 on hand 1 at odds 2.4" }).waitFor();

  // Another player deals the river: hand 1 wins at 2.4 (15.50 x 2.4 = 37.20), hand 2 loses.
  const bets = [holeBet("eve", 0, 15.5, 2.4), holeBet("eve", 1, 10, 4.9), holeBet("zed", 0, 5, 2.4)];
  await show(page, settled("T1-1", bets, [0], 111.7));
  const result = page.getByRole("status").filter({ hasText: "settled" });
  t.is(
    await result.innerText(),
    "Game T1-1 settled. Hand 1 wins. You staked 25.50 and were paid 37.20, paid to your seat: net +11.70.",
  );
  t.is(await page.getByText("Bet 15.50 on hand 1").count(), 0, "the bet's message is gone");
  const top = await result.boundingBox();
  const seat = await page.getByRole("heading", { name: "Your seat" }).boundingBox();
  t.true(top !== null && seat !== null && top.y < seat.y, "the result is at the top, above the seat");

  // The next game: no bets by eve, then a tie whose winning bet shares the payout (10 x 4.9 / 2).
  await show(page, { ...tableState("STATUS_HOLE", 0, []), gameId: "T1-2" });
  // The next deal takes the result away.
  await page.getByRole("status").filter({ hasText: "Game T1-1 settled" }).waitFor({ state: "detached" });
  await show(page, settled("T1-2", [holeBet("zed", 3, 5, 4.9)], [3], 100));
  await page
    .getByRole("status")
    .filter({ hasText: "Game T1-2 settled. Hand 4 wins. You placed no bets this game." })
    .waitFor();
  await show(page, { ...tableState("STATUS_HOLE", 0, []), gameId: "T1-3" });
  await show(page, settled("T1-3", [holeBet("eve", 1, 10, 4.9)], [1, 2], 114.5));
  const tie = page.getByRole("status").filter({ hasText: "Game T1-3 settled." });
  t.regex(
    await tie.innerText(),
    /Hands 2 and 3 tie: winning bets share the payout\. You staked 10\.00 and were paid 24\.50, paid to your seat: net \+14\.50\.$/,
  );
});

test.serial(
  "a river replayed together with the next deal (a stream resuming) still shows the player's result",
  async (t) => {
    t.timeout(2 * 60_000);
    const { page } = await eveAtTable(DESKTOP);
    await show(page, { ...tableState("STATUS_HOLE", 0, []), gameId: "T1-7" });
    const bets = [holeBet("eve", 0, 15.5, 2.4), holeBet("zed", 1, 5, 4.9)];
    const next = { ...tableState("STATUS_HOLE", 0, []), gameId: "T1-8" };
    await showStatesTogether(scripted.api, page, [settled("T1-7", bets, [0], 137.2), next]);
    const result = page.getByRole("status").filter({ hasText: "Game T1-7 settled" });
    await result.waitFor();
    t.is(
      await result.innerText(),
      "Game T1-7 settled. Hand 1 wins. You staked 15.50 and were paid 37.20, paid to your seat: net +21.70.",
    );
    // The game after it is dealt as usual: the next deal takes the result away.
    await show(page, { ...tableState("STATUS_FLOP", 1, BOARD.slice(0, 3)), gameId: "T1-8" });
    await show(page, { ...tableState("STATUS_HOLE", 0, []), gameId: "T1-9" });
    await result.waitFor({ state: "detached" });
  },
);

test.serial("a message shows where its move was made, covers no control, and can be dismissed", async (t) => {
  t.timeout(2 * 60_000);
  const { page } = await eveAtTable(PHONE);
  await show(page, tableState("STATUS_HOLE", 0, []));
  const betsBefore = scripted.api.bets.length;
  // A typo in the last hand's stake, far down a phone's page: refused with a message.
  const form = page.getByTestId("bet-3");
  await form.getByLabel("Stake on hand 4").fill("12.345");
  await form.getByRole("button", { name: /^Bet at / }).click();
  await page.getByRole("alert").filter({ hasText: "at most 2 decimals" }).waitFor();
  // Scrolled so each hand's bet button is at the top of the window: nothing covers it or any control.
  for (const hand of [0, 1, 2, 3]) {
    await page
      .getByTestId(`bet-${hand}`)
      .getByRole("button")
      .evaluate((element) => element.scrollIntoView({ block: "start" }));
    t.deepEqual(await coveredControls(page), [], `scrolled to hand ${hand + 1}`);
  }

  // The message is under that hand's form, where the player acted.
  const refused = page.getByTestId("hand-3").getByRole("alert").filter({ hasText: "at most 2 decimals" });
  await refused.waitFor();
  const message = await refused.boundingBox();
  const button = await form.getByRole("button", { name: /^Bet at / }).boundingBox();
  t.true(
    message !== null && button !== null && message.y >= button.y && message.y - button.y < 150,
    `the message under the bet button: ${JSON.stringify({ message, button })}`,
  );

  // A placed bet's confirmation is under its hand too; Dismiss takes it away.
  await page
    .getByTestId("bet-1")
    .getByRole("button", { name: /^Bet at 4\.9/ })
    .click();
  const placed = page.getByTestId("hand-1").getByRole("status");
  await placed.filter({ hasText: "Bet 10.00 on hand 2 at odds 4.9. Seat balance 90.00." }).waitFor();
  t.is(await refused.count(), 0, "the refusal gave way to the next move's message");
  await page.getByTestId("hand-1").getByRole("button", { name: "Dismiss this message" }).click();
  t.is(await placed.innerText(), "");
  t.is(scripted.api.bets.length, betsBefore + 1, "the typo sent nothing");
});

test.serial("a hand that takes no bet says why; a stage closed for a reveal and the river take none", async (t) => {
  t.timeout(2 * 60_000);
  const { page } = await eveAtTable(DESKTOP);
  const flop = tableState("STATUS_FLOP", 1, BOARD.slice(0, 3));
  // Hand 2 can only tie (no win chance, some draw chance); hand 3 is dead.
  const handOdds = flop.handOdds.map((panel) => {
    if (panel.handIndex === 1) return { ...panel, winPercentage: 0, drawPercentage: 2.1, odds: 0 };
    if (panel.handIndex !== 2) return panel;
    return { ...panel, winPercentage: 0, drawPercentage: 0, odds: 0, handStatus: "DEAD_CANNOT_WIN" as const };
  });
  await show(page, { ...flop, handOdds });
  const tieHand = page.getByTestId("hand-1");
  t.is(await tieHand.getByTestId("bet-1").count(), 0, "no bet form");
  t.is(await tieHand.getByTestId("no-bet-1").innerText(), "Can only tie: takes no bets.");
  t.is(await page.getByTestId("hand-2").getByTestId("no-bet-2").innerText(), "Cannot win: takes no bets.");
  t.is(await page.getByTestId("hand-0").getByTestId("no-bet-0").count(), 0, "a hand that takes bets has its form");
  await page.getByTestId("bet-0").waitFor();
  t.is(
    await page.getByTestId("target-rtp").innerText(),
    "Odds priced at a 97 % return to player, fixed for this game at its deal.",
  );
  t.is(
    await page.getByTestId("tie-share").innerText(),
    "A hand's odds count its ties as a share of a win: a dead heat of two pays half the odds.",
  );

  // An advance has closed the flop's betting to reveal the turn: the label says so, and no form is left.
  await show(page, { ...flop, handOdds, bettingOpen: false });
  await page.getByTestId("game-state").filter({ hasText: "Flop dealt: betting closed, the turn is next" }).waitFor();
  t.is(await page.locator('[data-testid^="bet-"]').count(), 0, "no bet form while the stage is closed");

  await show(page, settled("T1-1", [], [0], 100));
  const riverOdds = page.getByTestId("hand-0").locator('tr[data-stage="-1"] td').nth(2);
  t.is(await riverOdds.innerText(), "—", "the winner's river row shows no odds");
  t.is(
    await page.getByTestId("hand-0").locator('tr[data-stage="0"] td').nth(2).innerText(),
    "2.4",
    "the hole's odds stay",
  );
  t.is(await page.locator('[data-testid^="no-bet-"]').count(), 0, "no reason once betting is closed");
});

test.serial(
  "before a bet, the form says what the stake would return, rounded down to the cent, or that the seat does not hold it",
  async (t) => {
    t.timeout(2 * 60_000);
    const { page } = await eveAtTable(PHONE);
    const hole = tableState("STATUS_HOLE", 0, []);
    // Hand 2 can tie as well as win; hand 3 is priced at 1.0.
    const handOdds = hole.handOdds.map((panel) => {
      if (panel.handIndex === 1) return { ...panel, drawPercentage: 3 };
      return panel.handIndex === 2 ? { ...panel, winPercentage: 97, odds: 1 } : panel;
    });
    const holding = (seatBalance: number) => hole.seats.map((seat) => ({ ...seat, seatBalance }));
    await show(page, { ...hole, handOdds, seats: holding(5000) });
    const hint = (hand: number) => page.getByTestId(`bet-${hand}-hint`);
    const stake = (hand: number, amount: string) => page.getByLabel(`Stake on hand ${hand + 1}`).fill(amount);
    t.is(await hint(0).innerText(), "Returns 24.00 if it wins.", "the 10.00 filled in, at 2.4");
    await stake(0, "15.55");
    t.is(await hint(0).innerText(), "Returns 37.32 if it wins.", "37.32 exactly");
    await stake(0, "1234.56");
    t.is(await hint(0).innerText(), "Returns 2,962.94 if it wins.", "2,962.944 rounded down");
    await stake(1, "0.05");
    t.is(await hint(1).innerText(), "Returns 0.24 if it wins alone; a tie pays a share.", "0.245 rounded down");
    t.is(await hint(2).innerText(), "A win only returns the stake.");
    await stake(0, "abc");
    t.is(await hint(0).innerText(), "", "nothing for a typo");
    const button = page.getByTestId("bet-3").getByRole("button", { name: /^Bet at / });
    const described = await button.getAttribute("aria-describedby");
    t.is(
      await page.locator(`[id="${described}"]`).innerText(),
      "Returns 49.00 if it wins.",
      "the button's description",
    );

    await show(page, { ...hole, handOdds, seats: holding(12) });
    // The state and game are the same as before: wait for the new balance itself.
    await page.getByTestId("my-seat-balance").filter({ hasText: "12.00" }).waitFor();
    await stake(0, "12.01");
    t.is(await hint(0).innerText(), "Your seat holds 12.00: stake less or top up.", "said before the table refuses it");
    await stake(0, "12");
    t.is(await hint(0).innerText(), "Returns 28.80 if it wins.", "the whole seat may be staked");
  },
);

test.serial("a table that cannot be shown says why in a sentence and links back to the lobby", async (t) => {
  t.timeout(2 * 60_000);
  const { page } = await eveAtTable(PHONE);
  await page.goto("/#/table/41");
  const closed = page.locator('[data-testid="live-mode"][data-mode="closed"]');
  await closed.waitFor();
  t.is(await closed.getByRole("paragraph").first().innerText(), "There is no table 41.");
  t.is(await page.getByRole("alert").filter({ hasText: "There is no table 41." }).count(), 1, "announced");
  await closed.getByRole("link", { name: "Back to the lobby" }).click();
  await page.getByRole("heading", { level: 1, name: "Lobby" }).waitFor();

  // Someone else's personal table (403).
  await page.route("**/api/tables/1001/**", (route) =>
    route.fulfill({ status: 403, contentType: "application/json", body: '{"error":"not your table"}' }),
  );
  await page.goto("/#/table/1001");
  await closed.waitFor();
  t.regex(await closed.innerText(), /^Table 1001 is another player's personal table\.\s+Back to the lobby$/);
});

test.serial(
  "a read that failed while live warns of nothing once events came after it, when the stream ends",
  async (t) => {
    t.timeout(2 * 60_000);
    const { page } = await eveAtTable(DESKTOP);
    const warning = page.getByTestId("stale");
    // A move's read of the table fails while the stream is open: nothing to warn of, events come.
    scripted.api.stateFailures = 1;
    const failed = page.waitForResponse(
      (response) => response.url().endsWith("/api/tables/1/state") && response.status() === 503,
    );
    await page.getByLabel("Top-up amount").fill("5");
    await page.getByRole("button", { name: "Top up" }).click();
    await failed;
    // Once the page has taken the failure in (it names it), not only received it.
    await page.locator('[data-testid="live-mode"][data-mode="live"]').filter({ hasText: "Last problem" }).waitFor();
    await show(page, tableState("STATUS_HOLE", 0, []));
    // The stream then ends (as every stream does after its time) and is refused for a while: polling.
    scripted.api.nextStreams.push(...Array<number>(50).fill(429));
    scripted.api.dropStream();
    await page.locator('[data-testid="live-mode"][data-mode="polling"]').waitFor();
    t.is(await warning.count(), 0, "the state shown came after the failed read: not out of date");
    scripted.api.nextStreams.length = 0;
  },
);

test.serial("while the table cannot be read, a warning near the top says the figures may be out of date", async (t) => {
  t.timeout(2 * 60_000);
  const { page } = await eveAtTable(PHONE);
  await show(page, tableState("STATUS_HOLE", 0, []));
  const warning = page.getByTestId("stale");
  // The stream is refused but the state is read every 2 s: slower, not out of date.
  scripted.api.nextStreams.push(...Array<number>(50).fill(429));
  scripted.api.dropStream();
  await page.locator('[data-testid="live-mode"][data-mode="polling"]').waitFor();
  await page.waitForResponse((response) => response.url().endsWith("/api/tables/1/state") && response.ok());
  t.is(await warning.count(), 0, "polling that works warns of nothing");

  scripted.api.stateFailures = 1_000;
  await warning.waitFor();
  t.regex(await warning.innerText(), /^Not up to date: .*may be out of date\./);
  const box = await warning.boundingBox();
  const seat = await page.getByRole("heading", { name: "Your seat" }).boundingBox();
  t.true(box !== null && seat !== null && box.y + box.height <= seat.y && box.y >= 0, "in view, above the seat");
  t.deepEqual(await coveredControls(page), []);

  scripted.api.stateFailures = 0;
  await warning.waitFor({ state: "detached" });
  scripted.api.nextStreams.length = 0;

  // Live again; then the device goes offline: an open stream may not know it yet, so the page warns
  // at once, and reads the table and opens a new stream as soon as the device is back.
  scripted.api.dropStream();
  await page.locator('[data-testid="live-mode"][data-mode="live"]').waitFor();
  const context = page.context();
  await context.setOffline(true);
  await warning.waitFor();
  t.regex(await page.getByTestId("live-mode").innerText(), /offline/);
  await context.setOffline(false);
  await warning.waitFor({ state: "detached" });
  await page.locator('[data-testid="live-mode"][data-mode="live"]').waitFor();
  t.notRegex(await page.getByTestId("live-mode").innerText(), /offline|could not be reached/);
});

/** The shortest distance between two boxes, 0 when they touch or overlap. */
function gap(a: Box, b: Box): number {
  const dx = Math.max(0, a.x - (b.x + b.width), b.x - (a.x + a.width));
  const dy = Math.max(0, a.y - (b.y + b.height), b.y - (a.y + a.height));
  return Math.hypot(dx, dy);
}

interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

test.serial("the seat's controls: Top up and Leave in one row, Leave set apart from the deal button", async (t) => {
  t.timeout(2 * 60_000);
  for (const viewport of [DESKTOP, PHONE]) {
    const { page } = await eveAtTable(viewport);
    await show(page, tableState("STATUS_HOLE", 0, []));
    const box = async (name: string) => {
      const found = await page.getByRole("button", { name }).boundingBox();
      if (!found) throw new Error(`no ${name} button`);
      return found;
    };
    const [topUp, leave, deal] = [await box("Top up"), await box("Leave the table"), await box("Deal the flop")];
    const on = `${viewport.width}px wide`;
    if (viewport === DESKTOP) {
      t.true(Math.abs(topUp.y - leave.y) <= 1 && Math.abs(topUp.height - leave.height) <= 1, `one row, ${on}`);
    }
    t.true(gap(leave, deal) >= 24, `Leave ${Math.round(gap(leave, deal))}px from the deal button, ${on}`);
    t.true(deal.y < topUp.y, `the deal button first, ${on}`);
  }
});

test.serial("the account shows beside the seat, read again after sit, top-up, leave and payouts", async (t) => {
  t.timeout(2 * 60_000);
  const { page } = await eveAtTable(PHONE);
  const shows = (amount: string) => page.getByTestId("my-account-balance").filter({ hasText: amount }).waitFor();
  await shows("1,000.00");
  const balances = page.locator("p", { has: page.getByTestId("my-seat-balance") });
  t.regex(await balances.innerText(), /^Seat 1, balance 100\.00\s+Account: 1,000\.00$/, "side by side");

  // A top-up from another tab moves the seat and the account: the seat's change has the account read.
  scripted.api.account = 980;
  const start = scripted.api.state;
  await show(page, {
    ...start,
    seats: start.seats.map((seat) => (seat.playerId === "eve" ? { ...seat, seatBalance: 120 } : seat)),
  });
  await shows("980.00");
  // A bet lowers the seat alone: no read (one per bet would spend the player's rate limit).
  let profileReads = 0;
  page.on("request", (request) => void (request.url().includes("/api/players/") && profileReads++));
  await show(page, start);
  await new Promise((resolve) => setTimeout(resolve, 500));
  t.is(profileReads, 0, "no profile read for a lower seat balance");
  // Coming back into view has it read again.
  scripted.api.account = 1000;
  await page.evaluate("document.dispatchEvent(new Event('visibilitychange'))");
  await shows("1,000.00");
  // A top-up from another tab while the game waits at its river: only the river's arrival pays.
  const atRiver = settled("T1-0", [], [0], 100);
  await show(page, atRiver);
  scripted.api.account = 930;
  await show(page, { ...atRiver, seats: atRiver.seats.map((seat) => ({ ...seat, seatBalance: 170 })) });
  await shows("930.00");
  await show(page, start);
  scripted.api.account = 1000;
  await page.evaluate("document.dispatchEvent(new Event('visibilitychange'))");
  await shows("1,000.00");
  // A leave from another tab: the state without the seat can come before the wallet's credit, so
  // the account is read again shortly after the read that state made.
  const readAtLeave = page.waitForResponse((response) => response.url().includes("/api/players/"));
  await show(page, { ...start, seats: [] });
  await readAtLeave;
  scripted.api.account = 1100;
  await shows("1,100.00");
  scripted.api.account = 1000;
  await show(page, start);
  await shows("1,000.00");

  // Each move's confirmation before the next: a move asked for while one runs is ignored.
  const move = async (button: string, confirmed: string) => {
    await page.getByRole("button", { name: button }).click();
    await page.getByRole("status").filter({ hasText: confirmed }).waitFor();
  };
  await page.getByLabel("Top-up amount").fill("50.25");
  await move("Top up", "Topped up");
  await shows("949.75");
  await move("Leave the table", "You left the table");
  await shows("1,100.00");
  await page.getByLabel("Buy-in amount").fill("200");
  await move("Sit down", "Seated at seat 1 with 200.00.");
  await shows("900.00");

  // Eve leaves with a bet open; the river pays it to her account.
  await move("Leave the table", "You left the table");
  await shows("1,100.00");
  // The river's state can come before the wallet's credit: the account is read again shortly after.
  const river = settled("T1-1", [holeBet("eve", 0, 10, 2.4)], [0], 100);
  const readAtRiver = page.waitForResponse((response) => response.url().includes("/api/players/"));
  await show(page, { ...river, seats: [] });
  await readAtRiver;
  scripted.api.account = 1124;
  await shows("1,124.00");
});

/**
 * The refusal at `field`'s form says `text`: in an alert just under the form, the field marked
 * invalid (`invalid`) and described by it, and nowhere else on the page.
 */
async function refusedBeside(t: ExecutionContext, form: Locator, field: Locator, text: string, invalid = true) {
  const message = form.page().getByRole("alert").filter({ hasText: text });
  await message.waitFor();
  t.is(await message.count(), 1, `${text}: shown once`);
  t.is(await message.innerText(), text);
  const [box, formBox] = [await message.boundingBox(), await form.boundingBox()];
  t.true(
    box !== null &&
      formBox !== null &&
      box.y >= formBox.y + formBox.height &&
      box.y - (formBox.y + formBox.height) < 60,
    `${text}: just under its form ${JSON.stringify({ box, formBox })}`,
  );
  t.is(await field.getAttribute("aria-invalid"), invalid ? "true" : null, `${text}: the amount marked`);
  const described = invalid ? await field.getAttribute("aria-describedby") : null;
  if (invalid) t.is(await form.page().locator(`[id="${described}"]`).innerText(), text, "the field's description");
}

test.serial("a refusal names the amounts, beside the form that asked, and marks its amount", async (t) => {
  t.timeout(2 * 60_000);
  const { page } = await eveAtTable(PHONE);
  const hole = tableState("STATUS_HOLE", 0, []);
  await show(page, { ...hole, seats: hole.seats.map((seat) => ({ ...seat, seatBalance: 12 })) });
  await page.getByTestId("my-account-balance").filter({ hasText: "1,000.00" }).waitFor();
  const betForm = page.getByTestId("bet-1");
  const stake = betForm.getByLabel("Stake on hand 2");
  const placeBet = () => betForm.getByRole("button", { name: /^Bet at / }).click();
  await stake.fill("50");
  await placeBet();
  await refusedBeside(t, betForm, stake, "Your seat holds 12.00; this bet is 50.00.");

  // Editing the amount takes the refusal away; so does the next request that succeeds.
  await stake.fill("60");
  t.is(await page.getByRole("alert").filter({ hasText: "Your seat holds" }).count(), 0, "gone once edited");
  t.is(await stake.getAttribute("aria-invalid"), null);
  await placeBet();
  await refusedBeside(t, betForm, stake, "Your seat holds 12.00; this bet is 60.00.");
  const topUpField = page.getByLabel("Top-up amount");
  const topUpForm = page.locator("form", { has: topUpField });
  await topUpField.fill("50");
  await page.getByRole("button", { name: "Top up" }).click();
  await page.getByRole("status").filter({ hasText: "Topped up" }).waitFor();
  t.is(await page.getByRole("alert").filter({ hasText: "Your seat holds" }).count(), 0, "gone after a success");
  t.is(await stake.getAttribute("aria-invalid"), null);

  // The top-up's NACK carries the account's balance.
  await topUpField.fill("5000");
  await page.getByRole("button", { name: "Top up" }).click();
  await refusedBeside(t, topUpForm, topUpField, "Your account holds 950.00; this top-up is 5,000.00.");

  // The sit's NACK does not, and the screen's may be older than the refusal: no balance is quoted.
  await page.getByRole("button", { name: "Leave the table" }).click();
  await page.getByTestId("my-account-balance").filter({ hasText: "1,012.00" }).waitFor();
  const buyIn = page.getByLabel("Buy-in amount");
  await buyIn.fill("5000");
  await page.getByRole("button", { name: "Sit down" }).click();
  await refusedBeside(t, page.getByTestId("sit-form"), buyIn, "Your account does not cover this buy-in of 5,000.00.");

  // A reason the client does not know is the server's text.
  await page.route("**/api/tables/1/sit", (route) =>
    route.fulfill({ json: { acknowledgement: "NACK", message: "the pit boss says no", seatId: 0, seatBalance: 0 } }),
  );
  await buyIn.fill("20");
  await page.getByRole("button", { name: "Sit down" }).click();
  await refusedBeside(t, page.getByTestId("sit-form"), buyIn, "Refused: the pit boss says no.", false);
  await page.unroute("**/api/tables/1/sit");
});

test.serial("each hand card shows the player's own stake on it and what that returns if it wins", async (t) => {
  t.timeout(2 * 60_000);
  const { page } = await eveAtTable(PHONE);
  const flop = tableState("STATUS_FLOP", 1, BOARD.slice(0, 3));
  // Eve backs hand 1 twice (15.50 x 2.4 + 5 x 3.1 = 52.70) and hand 3 once (1.05 x 4.9 = 5.145,
  // rounded down); zed alone backs hand 2.
  const bets = [
    holeBet("eve", 0, 15.5, 2.4),
    { ...holeBet("eve", 0, 5, 3.1), bettingStage: 1 },
    holeBet("zed", 1, 20, 4.9),
    holeBet("eve", 2, 1.05, 4.9),
  ];
  await show(page, { ...flop, bets });
  const stakes = () =>
    Promise.all(
      [0, 1, 2, 3].map(async (hand) => {
        const shown = page.getByTestId(`hand-${hand}`).getByTestId("my-stake");
        return (await shown.count()) === 0 ? null : await shown.innerText();
      }),
    );
  t.deepEqual(await stakes(), [
    "Your stake: 20.50. Returns 52.70 if it wins alone.",
    null,
    "Your stake: 1.05. Returns 5.14 if it wins alone.",
    null,
  ]);

  // Settled at the river, the stakes are no longer open: the result says what they did.
  await show(page, settled("T1-1", bets, [0], 100));
  t.deepEqual(await stakes(), [null, null, null, null]);
});

test.serial("the player's own seat and bets carry a mark that no other player's name or id can copy", async (t) => {
  const { page } = await eveAtTable(DESKTOP);
  const hole = tableState("STATUS_HOLE", 0, []);
  // A name, or a player id, chosen to pass for eve's own seat or bet.
  const impostor = { seatId: 2, playerId: "mallory", playerName: "eve (you)", seatBalance: 100, avatarImageUrl: "" };
  const bets = [holeBet("eve", 0, 5, 2.4), holeBet("You", 1, 5, 3.2)];
  await show(page, { ...hole, seats: [...hole.seats, impostor], bets });
  const marks = (table: string, player: string) =>
    page.locator(`[data-testid="${table}"] tr[data-player="${player}"] [data-testid="you"]`).count();
  t.deepEqual(
    [
      await marks("seats", "eve"),
      await marks("seats", "mallory"),
      await marks("bets", "eve"),
      await marks("bets", "You"),
    ],
    [1, 0, 1, 0],
  );
  // Screen readers hear the row's state, which no text can give: "current" on the player's own rows only.
  const current = (table: string) =>
    page
      .locator(`[data-testid="${table}"] tr[aria-current="true"]`)
      .evaluateAll((rows) => rows.map((row) => row.getAttribute("data-player")));
  t.deepEqual([await current("seats"), await current("bets")], [["eve"], ["eve"]]);
});

test.serial("at 320 px wide the table screen does not scroll sideways", async (t) => {
  t.timeout(2 * 60_000);
  const { page } = await eveAtTable({ width: 320, height: 640 });
  const sideways = async (shown: string) => {
    const overflow = (await page.evaluate("document.scrollingElement.scrollWidth - window.innerWidth")) as number;
    t.true(overflow <= 0, `${shown}: the page is ${overflow}px wider than the window`);
  };
  await sideways("seated, no game");
  const bets = [holeBet("eve", 0, 1234.56, 2.4), holeBet("zed", 3, 15.5, 4.9)];
  await show(page, { ...tableState("STATUS_HOLE", 0, []), bets });
  await sideways("the hole, bet forms and bets");
  await show(page, { ...tableState("STATUS_FLOP", 1, BOARD.slice(0, 3)), bets });
  await sideways("the flop, two odds rows");
  await show(page, settled("T1-1", bets, [0], 100));
  await sideways("the river, payouts");
  // Payouts in the thousands are too wide even so: the bets scroll in their own box, which the
  // keyboard can then reach; the tables that fit take no tab stop.
  const betsBox = page.getByRole("region", { name: "Bets table" });
  t.is(await betsBox.getAttribute("tabindex"), "0", "the bets' box takes the focus");
  t.true(await betsBox.evaluate((box) => box.scrollWidth > box.clientWidth), "the bets scroll in their box");
  t.is(await page.getByRole("region", { name: /odds table$/ }).count(), 0, "the hands' odds fit");
  await show(page, { ...settled("T1-1", bets, [0], 100), seats: [] });
  await sideways("not seated, the sit form");
});

test.serial("an advance's events that come after its answer do not show the state before it again", async (t) => {
  t.timeout(5 * 60_000);
  const api = scripted.api;
  const { page } = await eveAtTable(PHONE);
  const seed = newServerSeed();
  api.serverSeed = seed;
  // As from a stream that follows another table replica: the events after the answer.
  api.advanceEventsLagMs = 500;
  t.teardown(() => {
    api.serverSeed = null;
    api.advanceEventsLagMs = 0;
  });
  await show(page, committedState("STATUS_HOLE", "T1-1", seed));
  // Every game state the page shows from here on, in order.
  await page.evaluate(`{
    const shown = (window.shownStates = []);
    const record = () => {
      const state = document.querySelector('[data-testid="game-state"]')?.getAttribute("data-state");
      if (state && state !== shown.at(-1)) shown.push(state);
    };
    record();
    new MutationObserver(record).observe(document.body, { subtree: true, childList: true, attributes: true });
  }`);
  await advance(page, "Deal the flop", "STATUS_FLOP");
  // The stream's two versions of the advance (the hole's betting closed, then the flop) come now.
  await sleep(2 * api.advanceEventsLagMs + 1_000);
  t.deepEqual(await page.evaluate("window.shownStates"), ["STATUS_HOLE", "STATUS_FLOP"], "never the hole again");
});

test.serial("a table whose versions went back (restored from a backup) is shown as a read finds it", async (t) => {
  t.timeout(5 * 60_000);
  const api = scripted.api;
  const { page } = await eveAtTable(PHONE);
  await show(page, tableState("STATUS_HOLE", 0, []));
  // The stream ends and is refused meanwhile: the page polls.
  api.nextStreams.push(...Array<number>(30).fill(429));
  t.teardown(() => {
    api.nextStreams.length = 0;
  });
  api.dropStream();
  await page.locator('[data-testid="live-mode"][data-mode="polling"]').waitFor();
  // Restored to an earlier instant: the table's version is 1 again, below the one shown.
  api.pushTogether([[1, tableState("STATUS_START", -1, [])]]);
  await waitForState(page, "STATUS_START");
  t.is(
    await page.getByTestId("game-state").getAttribute("data-state"),
    "STATUS_START",
    "the read's state, not the hole",
  );
});

test.serial("a stake being typed, and its field's focus, outlast the stage's close for a reveal", async (t) => {
  t.timeout(2 * 60_000);
  const { page } = await eveAtTable(PHONE);
  const hole = tableState("STATUS_HOLE", 0, []);
  await show(page, hole);
  const field = () => page.getByTestId("bet-0").getByRole("textbox");
  await field().fill("3");
  // Another player deals the flop: the hole's betting closes (the form goes), then the flop opens.
  await show(page, { ...hole, bettingOpen: false });
  t.is(await page.getByTestId("bet-0").count(), 0, "no form while the stage is closed");
  await show(page, tableState("STATUS_FLOP", 1, BOARD.slice(0, 3)));
  t.is(await field().inputValue(), "3", "the stake typed, not 10");
  t.true(
    await page.evaluate(`document.activeElement?.closest('[data-testid="bet-0"]') !== null`),
    "the field has the focus again",
  );
  t.regex(await page.getByTestId("bet-0-hint").innerText(), /^Returns \d/, "its hint is the typed stake's");
});
