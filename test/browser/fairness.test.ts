// The table's provably fair panel in a real headless Chromium, against a scripted API
// (helpers/scripted-api.ts) that deals from real committed decks and can cheat on cue: an honest
// game verifies in the page; a river that reveals another seed, with its own matching commitment
// and the cards that seed deals, is caught because the page kept the commitment shown at the hole;
// a river card that the seed does not deal is named.
import test, { type ExecutionContext } from "ava";
import type { Page } from "playwright-core";
import { formatCard, fullDeck } from "../../services/odds/src/domain/cards.js";
import { newServerSeed, seedCommitment } from "../../services/odds/src/domain/provably-fair.js";
import type { TableState } from "../helpers/api.js";
import { expectAccessible, screenshot } from "./helpers/browser.js";
import { signIn, waitForState } from "./helpers/client.js";
import { committedState, showState } from "./helpers/scripted-api.js";
import { useScriptedBrowser } from "./helpers/scripted-browser.js";

const scripted = useScriptedBrowser(test);

const show = (page: Page, state: TableState) => showState(scripted.api, page, state);

async function verify(page: Page): Promise<{ verdict: string | null; text: string }> {
  const panel = page.getByTestId("fairness");
  await panel.getByRole("button", { name: "Verify this game" }).click();
  const done = panel.locator('[data-testid="verify"][data-verdict]');
  await done.waitFor();
  return { verdict: await done.getAttribute("data-verdict"), text: await done.innerText() };
}

async function shownCommitment(page: Page): Promise<string | null> {
  return page.getByTestId("fairness").getByTestId("seed-commitment").getAttribute("data-value");
}

async function honestGame(t: ExecutionContext, page: Page): Promise<void> {
  const seed = newServerSeed();
  const panel = page.getByTestId("fairness");
  t.regex(await panel.innerText(), /before any bet/, "before the deal the panel says what will appear");
  await show(page, committedState("STATUS_HOLE", "T1-1", seed));
  t.is(await shownCommitment(page), seedCommitment(seed), "the commitment from the hole on");
  t.regex(await panel.innerText(), /Deck commitment \(SHA-256 of the server seed\)/);
  t.regex(await panel.getByTestId("commitment-seen").innerText(), /since the hole/);
  t.is(await panel.getByRole("button", { name: "Verify this game" }).count(), 0, "nothing to verify before the river");
  await show(page, committedState("STATUS_FLOP", "T1-1", seed));
  await show(page, committedState("STATUS_TURN", "T1-1", seed));
  await show(page, committedState("STATUS_RIVER", "T1-1", seed));
  t.is(await panel.getByTestId("server-seed").getAttribute("data-value"), seed, "the seed at the river");
  const { verdict, text } = await verify(page);
  t.is(verdict, "verified", text);
  t.regex(text, /Verified: the cards were fixed before any bet\./);
  await screenshot(page, "12-fairness-verified");
  await expectAccessible(t, page, "table with a verified game");
}

test("the river's seed is checked against the commitment kept since the hole", async (t) => {
  t.timeout(5 * 60_000);
  const watched = await scripted.openPage({ width: 375, height: 812 });
  const { page } = watched;
  const api = scripted.api;
  await page.goto("/");
  await signIn(page, "eve");
  await page.goto("/#/table/1");
  await waitForState(page, "STATUS_START");
  await api.streamOpen();
  await page.locator('[data-testid="live-mode"][data-mode="live"]').waitFor();
  await honestGame(t, page);

  // Game 2: the hole commits to one seed; the river reveals another, with that seed's own
  // commitment and the cards it deals. The river state alone would verify.
  const committed = newServerSeed();
  const swapped = newServerSeed();
  await show(page, committedState("STATUS_HOLE", "T1-2", committed));
  t.is(await page.getByTestId("commitment-changed").count(), 0, "no alarm while the commitment holds");
  await show(page, committedState("STATUS_RIVER", "T1-2", swapped));
  const alarm = page.getByRole("alert").filter({ hasText: "the deck commitment changed during game T1-2" });
  await alarm.waitFor();
  t.regex(await alarm.innerText(), new RegExp(`${seedCommitment(committed)}[\\s\\S]*${seedCommitment(swapped)}`));
  t.is(await shownCommitment(page), seedCommitment(committed), "the panel keeps showing the hole's commitment");
  const swappedVerdict = await verify(page);
  t.is(swappedVerdict.verdict, "failed");
  t.regex(swappedVerdict.text, /Not verified: the commitment changed during the game/);
  await screenshot(page, "13-fairness-commitment-changed");
  await expectAccessible(t, page, "table with a changed commitment");

  // Game 3: the commitment holds, but the river card is not the one the seed deals.
  const seed = newServerSeed();
  await show(page, committedState("STATUS_HOLE", "T1-3", seed));
  const honest = committedState("STATUS_RIVER", "T1-3", seed);
  // A card this game deals nowhere: three fixed candidates could all be dealt (seen once).
  const { hands, flopCard1, flopCard2, flopCard3, turnCard, riverCard } = honest;
  const dealt = [...hands!, flopCard1, flopCard2, flopCard3, turnCard, riverCard].join("");
  const other = fullDeck()
    .map(formatCard)
    .find((card) => !dealt.includes(card))!;
  await show(page, { ...honest, riverCard: other });
  t.is(await page.getByTestId("commitment-changed").count(), 0);
  const cardVerdict = await verify(page);
  t.is(cardVerdict.verdict, "failed");
  t.regex(cardVerdict.text, new RegExp(`Not verified: the river is ${other}, but the deck deals ${honest.riverCard}`));
  t.deepEqual(watched.problems, []);
});
