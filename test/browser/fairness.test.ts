// The table's provably fair panel in a real headless Chromium, against a scripted API
// (helpers/scripted-api.ts) that deals from real committed decks and can cheat on cue: an honest
// game verifies in the page; a river that reveals another seed, with its own matching commitment
// and the cards that seed deals, is caught because the page kept the commitment shown at the hole;
// a river card that the seed does not deal is named. The page's own deal sends a fresh client seed,
// and the game dealt with it verifies; a river that shows another client seed does not. A game the
// table moved on from before the page saw its river is verified from its record, against the
// commitment the page kept, and its client seed judged against the one the page sent.
import test, { type ExecutionContext } from "ava";
import type { Page } from "playwright-core";
import { formatCard, fullDeck } from "@pokerodds/common/poker/cards";
import { newServerSeed, seedCommitment } from "../../services/odds/src/domain/provably-fair.js";
import type { TableState } from "../helpers/api.js";
import { expectAccessible, screenshot, type Watched } from "./helpers/browser.js";
import { advance, signIn, waitForState } from "./helpers/client.js";
import { committedState, recordOf, showState } from "./helpers/scripted-api.js";
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

/** Opens table 1 for eve in a new page, showing `start` and following its event stream. */
async function openTable(start: TableState): Promise<Watched> {
  const watched = await scripted.openPage({ width: 375, height: 812 });
  const { page } = watched;
  scripted.api.state = start;
  await page.goto("/");
  await signIn(page, "eve");
  await page.goto("/#/table/1");
  await page
    .getByTestId("game-state")
    .filter({ hasText: `game ${start.gameId}` })
    .waitFor();
  await waitForState(page, start.gameState);
  await scripted.api.streamOpen();
  await page.locator('[data-testid="live-mode"][data-mode="live"]').waitFor();
  return watched;
}

/** A game dealt without a client seed (as by another client through the API), seen from its start. */
async function honestGame(t: ExecutionContext, page: Page, seed: string): Promise<void> {
  const panel = page.getByTestId("fairness");
  t.is(await shownCommitment(page), seedCommitment(seed), "the commitment from the game's start, before the deal");
  t.regex(await panel.innerText(), /Deck commitment \(SHA-256 of the server seed\)/);
  t.regex(await panel.getByTestId("commitment-seen").innerText(), /since the start of the game/);
  t.regex(await panel.innerText(), /A deal from this page sends a fresh random client seed/);
  t.is(await panel.getByTestId("client-seed-shown").count(), 0, "no client seed before the deal");
  await show(page, committedState("STATUS_HOLE", "T1-1", seed));
  t.is(await shownCommitment(page), seedCommitment(seed), "the same commitment from the hole on");
  t.regex(await panel.getByTestId("commitment-seen").innerText(), /since the start of the game/);
  t.regex(await panel.getByTestId("client-seed-shown").innerText(), /None: the deck comes from the server seed alone/);
  t.is(await panel.getByRole("button", { name: "Verify this game" }).count(), 0, "nothing to verify before the river");
  await show(page, committedState("STATUS_FLOP", "T1-1", seed));
  await show(page, committedState("STATUS_TURN", "T1-1", seed));
  await show(page, committedState("STATUS_RIVER", "T1-1", seed));
  t.is(await panel.getByTestId("server-seed").getAttribute("data-value"), seed, "the seed at the river");
  t.is(await page.getByTestId("commitment-changed").count(), 0, "no alarm: the start's commitment is the river's");
  const { verdict, text } = await verify(page);
  t.is(verdict, "verified", text);
  t.regex(text, /Verified: the cards were fixed before any bet\. No client seed was used/);
  await screenshot(page, "12-fairness-verified");
  await expectAccessible(t, page, "table with a verified game");
}

test.serial("the river's seed is checked against the commitment kept since the game's start", async (t) => {
  t.timeout(5 * 60_000);
  const first = newServerSeed();
  const watched = await openTable(committedState("STATUS_START", "T1-1", first));
  const { page } = watched;
  await honestGame(t, page, first);

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

  // A river state that leaves out the turn and the river, which decided the bets: not verified.
  await show(page, { ...honest, turnCard: null, riverCard: null });
  const partVerdict = await verify(page);
  t.is(partVerdict.verdict, "failed");
  t.regex(partVerdict.text, /Not verified: the game reached the river, but its board shows 3 of the 5 cards/);
  t.deepEqual(watched.problems, []);
});

test.serial("the page's deal sends a fresh client seed; its game verifies with it, and not with another", async (t) => {
  t.timeout(5 * 60_000);
  const api = scripted.api;
  const seed = newServerSeed();
  api.serverSeed = seed;
  api.advances.length = 0;
  const watched = await openTable(committedState("STATUS_START", "T1-7", seed));
  const { page } = watched;
  const panel = page.getByTestId("fairness");
  t.is(await shownCommitment(page), seedCommitment(seed), "the commitment before the deal");

  await advance(page, "Deal the hole cards", "STATUS_HOLE");
  const deal = api.advances[0];
  t.deepEqual(deal?.from, { gameId: "T1-7", gameState: "STATUS_START" }, "the deal names the state it deals from");
  const clientSeed = deal?.clientSeed ?? "";
  t.regex(clientSeed, /^[0-9a-f]{32}$/, "and carries a fresh random client seed");
  t.is(await panel.getByTestId("client-seed").getAttribute("data-value"), clientSeed, "shown from the hole on");
  t.is(await panel.getByTestId("client-seed-source").innerText(), "The one this page sent with its deal.");
  t.is(await shownCommitment(page), seedCommitment(seed), "the commitment kept from before the deal");
  for (const [button, to] of [
    ["Deal the flop", "STATUS_FLOP"],
    ["Deal the turn", "STATUS_TURN"],
    ["Deal the river", "STATUS_RIVER"],
  ] as const) {
    await advance(page, button, to);
  }
  t.deepEqual(
    api.advances.map((sent) => sent.clientSeed),
    [clientSeed, undefined, undefined, undefined],
    "only the deal sends a client seed",
  );
  const { verdict, text } = await verify(page);
  t.is(verdict, "verified", text);
  t.regex(
    text,
    new RegExp(
      `Verified: the cards were fixed before any bet\\. The house committed to its seed before the client seed ${clientSeed} was chosen`,
    ),
  );
  await screenshot(page, "14-fairness-client-seed-verified");
  await expectAccessible(t, page, "table with a game dealt with a client seed");

  // The next game, dealt by the page the same way; its river shows a client seed other than the one
  // the deck was mixed with (whatever else it shows checks out): the cards are not that seed's.
  const next = newServerSeed();
  api.serverSeed = next;
  await show(page, committedState("STATUS_START", "T1-8", next));
  await advance(page, "Deal the hole cards", "STATUS_HOLE");
  const sent = api.advances.at(-1)?.clientSeed ?? "";
  t.regex(sent, /^[0-9a-f]{32}$/);
  t.not(sent, clientSeed, "a fresh client seed for every deal");
  const altered = "0123456789abcdef0123456789abcdef";
  await show(page, { ...committedState("STATUS_RIVER", "T1-8", next, sent), clientSeed: altered });
  t.is(await page.getByTestId("commitment-changed").count(), 0, "the commitment held");
  t.regex(
    await panel.getByTestId("client-seed-source").innerText(),
    new RegExp(`^Not the one this page sent with its deal \\(${sent}\\)`),
  );
  const alteredVerdict = await verify(page);
  t.is(alteredVerdict.verdict, "failed");
  t.regex(
    alteredVerdict.text,
    new RegExp(
      `Not verified: hand \\d+ is \\w{4}, but the deck deals it \\w{4} \\(mixed with the client seed "${altered}"\\)`,
    ),
  );
  await expectAccessible(t, page, "table with an altered client seed");
  t.deepEqual(watched.problems, []);
});

test.serial("a game the table moved on from before its river is verified from its record", async (t) => {
  t.timeout(5 * 60_000);
  const seed = newServerSeed();
  const watched = await openTable(committedState("STATUS_START", "T1-20", seed));
  const { page } = watched;
  const panel = page.getByTestId("fairness");
  await show(page, committedState("STATUS_FLOP", "T1-20", seed));
  // Another player dealt the turn and the river and cleared the table before this page saw them.
  const next = newServerSeed();
  await show(page, committedState("STATUS_START", "T1-21", next));
  const previous = panel.getByTestId("previous-game");
  t.regex(await previous.innerText(), /Previous game T1-20[\s\S]*since the start of the game/);
  scripted.api.records.set("T1-20", recordOf(committedState("STATUS_RIVER", "T1-20", seed)));
  // A record not read for now (the history reads' budget spent) is no verdict: the check was not made.
  scripted.api.recordRefusals = 1;
  await previous.getByRole("button", { name: "Verify game T1-20" }).click();
  const unchecked = previous.locator('[data-testid="verify"][data-verdict="unchecked"]');
  await unchecked.waitFor();
  t.regex(
    await unchecked.innerText(),
    /^Verify game T1-20\s+Not checked: too many history reads .*try again later\. Wait 30 s\.$/,
  );
  t.is(await previous.getByRole("alert").innerText(), "", "no failure is claimed");
  await previous.getByRole("button", { name: "Verify game T1-20" }).click();
  const done = previous.locator('[data-testid="verify"][data-verdict="verified"]');
  await done.waitFor();
  t.is(await done.getAttribute("data-verdict"), "verified", await done.innerText());
  t.regex(await done.innerText(), /Verified: the cards were fixed before any bet\./);
  await screenshot(page, "15-fairness-previous-game-verified");
  await expectAccessible(t, page, "table with a previous game verified");

  // The next game's record reveals another seed than the one committed to at its start (with that
  // seed's own commitment and cards): caught against the commitment the page kept.
  await show(page, committedState("STATUS_HOLE", "T1-21", next));
  await show(page, committedState("STATUS_START", "T1-22", newServerSeed()));
  scripted.api.records.set("T1-21", recordOf(committedState("STATUS_RIVER", "T1-21", newServerSeed())));
  await previous.getByRole("button", { name: "Verify game T1-21" }).click();
  const swapped = previous.locator('[data-testid="verify"][data-verdict]');
  await swapped.waitFor();
  t.is(await swapped.getAttribute("data-verdict"), "failed");
  t.regex(await swapped.innerText(), /Not verified: the commitment changed during the game/);

  // A record the table does not have: the verdict says so.
  await show(page, committedState("STATUS_START", "T1-23", newServerSeed()));
  await previous.getByRole("button", { name: "Verify game T1-22" }).click();
  const missing = previous.locator('[data-testid="verify"][data-verdict]');
  await missing.waitFor();
  t.regex(
    await missing.innerText(),
    /Not verified: the game's record could not be read: Table 1 has no finished game T1-22\.(?!\.)/,
  );

  // A game this page dealt, whose record shows no client seed (the house dealt first, without one)
  // and which the table cleared before this page saw its river: its cards verify, and the verdict
  // says this page's seed was not used, as the river's would.
  const dealtHere = newServerSeed();
  scripted.api.serverSeed = dealtHere;
  await show(page, committedState("STATUS_START", "T1-24", dealtHere));
  await advance(page, "Deal the hole cards", "STATUS_HOLE");
  const sent = scripted.api.advances.at(-1)?.clientSeed ?? "";
  t.regex(sent, /^[0-9a-f]{32}$/);
  await show(page, committedState("STATUS_START", "T1-25", newServerSeed()));
  scripted.api.records.set("T1-24", recordOf(committedState("STATUS_RIVER", "T1-24", dealtHere)));
  await previous.getByRole("button", { name: "Verify game T1-24" }).click();
  const dropped = previous.locator('[data-testid="verify"][data-verdict]');
  await dropped.waitFor();
  t.is(await dropped.getAttribute("data-verdict"), "verified", await dropped.innerText());
  t.regex(
    await dropped.innerText(),
    new RegExp(
      `The deck comes from the server seed and no client seed, not the seed this page sent \\(${sent}\\): unless another player's deal came first, the house may have chosen the cards\\.`,
    ),
  );
  t.deepEqual(watched.problems, []);
});

test.serial("a player who goes to the lobby and back still holds the commitment seen before the deal", async (t) => {
  t.timeout(5 * 60_000);
  const seed = newServerSeed();
  const watched = await openTable(committedState("STATUS_START", "T1-9", seed));
  const { page } = watched;
  await show(page, committedState("STATUS_HOLE", "T1-9", seed));
  // To the lobby and back within the page (no reload), while the game goes on to the turn.
  await page.getByRole("link", { name: "Lobby" }).click();
  await page.getByTestId("game-state").waitFor({ state: "detached" });
  scripted.api.state = committedState("STATUS_TURN", "T1-9", seed);
  await page.evaluate("location.hash = '#/table/1'");
  await waitForState(page, "STATUS_TURN");
  await scripted.api.streamOpen();
  t.regex(await page.getByTestId("commitment-seen").innerText(), /since the start of the game/);
  await show(page, committedState("STATUS_RIVER", "T1-9", seed));
  const { verdict, text } = await verify(page);
  t.is(verdict, "verified", text);
  t.regex(text, /Verified: the cards were fixed before any bet\./);
});
