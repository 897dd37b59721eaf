// The screens other than the table's on a 320 px wide phone, in a real headless Chromium against the
// scripted API (helpers/scripted-api.ts): sign-in, a lobby of several tables and seats, a deal of 6
// hands, and a batch of bulk games at every stage. None may make the page scroll sideways; a table
// too wide for the phone scrolls in its own box, which the keyboard can then reach (axe-core).
import test, { type ExecutionContext } from "ava";
import type { Locator, Page } from "playwright-core";
import { expectAccessible, screenshot } from "./helpers/browser.js";
import { signIn } from "./helpers/client.js";
import { useScriptedBrowser } from "./helpers/scripted-browser.js";

const scripted = useScriptedBrowser(test, (api) => {
  const tableIds = [1, 2, 7, 12, 48, 105, 1337, 20481];
  api.lobby = {
    tables: tableIds.map((tableId, i) => ({ tableId, playerCount: i + 1, gameState: i % 2 ? "BETTING" : "WAITING" })),
    totalActivePlayers: 36,
  };
  api.profiles.set("eve", { role: "PAYING_USER", personalTableId: 20481 });
  api.seats = [
    { tableId: 2, seatId: 3, seatBalance: 1234.56 },
    { tableId: 105, seatId: 6, seatBalance: 20.5 },
    { tableId: 20481, seatId: 1, seatBalance: 99999.99 },
  ];
});

const PHONE_320 = { width: 320, height: 640 };

/** A page of its own at 320 px, on the sign-in screen. */
async function narrowPage(): Promise<Page> {
  const { page } = await scripted.openPage(PHONE_320);
  await page.goto("/");
  return page;
}

async function noSidewaysScroll(t: ExecutionContext, page: Page, shown: string): Promise<void> {
  const overflow = (await page.evaluate("document.scrollingElement.scrollWidth - window.innerWidth")) as number;
  t.true(overflow <= 0, `${shown}: the page is ${overflow}px wider than the window`);
}

/** Verifies the game in `panel` with its `button`, opens every folded value and deck, and checks the page still fits. */
async function verifiedWithAllOpen(t: ExecutionContext, page: Page, panel: Locator, button: string, shown: string) {
  await panel.getByRole("button", { name: button }).click();
  await panel.locator('[data-testid="verify"][data-verdict="verified"]').waitFor();
  for (const summary of await panel.locator("summary").all()) await summary.click();
  await noSidewaysScroll(t, page, `${shown} verified, its full values and deck open`);
}

test("at 320 px wide the sign-in screen does not scroll sideways", async (t) => {
  const page = await narrowPage();
  await page.getByTestId("dev-sign-in").getByLabel("Role").waitFor();
  await noSidewaysScroll(t, page, "sign-in");
});

test("at 320 px wide the lobby does not scroll sideways", async (t) => {
  const page = await narrowPage();
  await signIn(page, "eve");
  await page.getByTestId("active-tables").getByRole("link", { name: "Table 20481" }).waitFor();
  t.is(await page.getByTestId("active-tables").getByRole("listitem").count(), 7, "every table eve may open is listed");
  await page.getByTestId("others-personal-tables").waitFor();
  t.is(await page.getByTestId("seat-chips").count(), 3, "every seat is listed");
  await noSidewaysScroll(t, page, "the lobby");
});

test("at 320 px wide the deal screen does not scroll sideways", async (t) => {
  const page = await narrowPage();
  await signIn(page, "eve");
  await page.getByRole("link", { name: "Deal" }).click();
  await page.getByLabel("Number of hands").selectOption("6");
  await page.getByRole("button", { name: "Deal", exact: true }).click();
  const result = page.getByTestId("deal-result");
  await result.waitFor();
  t.is(await result.locator("tbody tr").count(), 6, "six hands");
  await noSidewaysScroll(t, page, "a deal of 6 hands");
  t.is(await page.getByRole("region", { name: "Pre-flop odds table" }).count(), 0, "the deal's odds fit");
  // The verdict, the deck it derives and the full seed are the widest things the screen shows.
  await verifiedWithAllOpen(t, page, page.getByTestId("fairness"), "Verify this deal", "the deal");
  await screenshot(page, "narrow-deal");
  await expectAccessible(t, page, "deal at 320 px");
});

test("at 320 px wide the bulk screen does not scroll sideways at any stage", async (t) => {
  const page = await narrowPage();
  await signIn(page, "eve");
  await page.getByRole("link", { name: "Bulk games" }).click();
  await page.getByLabel("Games (1–200)").fill("5");
  // Four hands: the most the API deals in a bulk game.
  await page.getByLabel("Hands").selectOption("4");
  await page.getByRole("button", { name: "Generate" }).click();
  const batch = page.getByTestId("bulk-batch");
  await batch.getByRole("heading", { name: "Game 1 of 5: BULK-0001" }).waitFor();
  await noSidewaysScroll(t, page, "a batch of 5 games, before a stage is picked");
  for (const stage of ["Hole", "Flop", "Turn", "River"]) {
    await batch.getByRole("button", { name: stage }).click();
    await batch.getByTestId("bulk-stage").filter({ hasText: stage }).waitFor();
    t.is(await batch.locator("tbody tr").count(), 4, `four hands at the ${stage}`);
    await noSidewaysScroll(t, page, `bulk game 1 at the ${stage}`);
  }
  t.regex(await batch.locator("tbody").innerText(), /Winner/, "the river names its winner");
  // Five cards of a best hand are too wide for the phone: the table scrolls in its own box, which
  // the keyboard can reach.
  const box = batch.getByRole("region", { name: "Odds at the river table" });
  t.is(await box.getAttribute("tabindex"), "0", "the odds' box takes the focus");
  t.true(await box.evaluate((element) => element.scrollWidth > element.clientWidth), "the odds scroll in their box");
  await verifiedWithAllOpen(t, page, batch, "Verify this game", "bulk game 1");
  await screenshot(page, "narrow-bulk-river");
  await expectAccessible(t, page, "bulk at 320 px");
});
