// What a player does in the web client, as a person would: by labels, roles and visible text. The
// few data-testid hooks read values (balances, the game state) that a person reads by eye.
import type { Locator, Page } from "playwright-core";

/** "1,234.50" as integer cents. */
export async function centsIn(locator: Locator): Promise<number> {
  const text = (await locator.innerText()).trim();
  if (!/^-?[\d,]+\.\d{2}$/.test(text)) throw new Error(`not an amount with 2 decimals: ${JSON.stringify(text)}`);
  const [whole, fraction] = text.replace(/,/g, "").split(".") as [string, string];
  return Number(whole) * 100 + Number(fraction);
}

export async function signIn(page: Page, playerId: string): Promise<void> {
  await page.getByLabel("Player id").fill(playerId);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.getByRole("heading", { level: 1, name: "Lobby" }).waitFor();
  await page.getByTestId("account-balance").waitFor();
}

/** Signs in with the keyboard alone: the screen's heading has focus, Tab reaches the field, Enter submits. */
export async function signInWithKeyboard(page: Page, playerId: string): Promise<void> {
  await page.getByLabel("Player id").waitFor();
  await page.keyboard.press("Tab");
  const focused = await page.evaluate("document.activeElement && document.activeElement.getAttribute('name')");
  if (focused !== "playerId") throw new Error(`Tab from the heading focused ${String(focused)}, not the player id`);
  await page.keyboard.type(playerId);
  await page.keyboard.press("Enter");
  await page.getByRole("heading", { level: 1, name: "Lobby" }).waitFor();
  await page.getByTestId("account-balance").waitFor();
}

/** Opens a table from the lobby with the keyboard only: its number, then Enter. */
export async function openTable(page: Page, tableId: number): Promise<void> {
  if (!(await page.getByRole("heading", { level: 1, name: "Lobby" }).isVisible())) {
    await page.getByRole("link", { name: "Lobby" }).click();
  }
  // A new screen moves focus to its heading once painted: an Enter pressed before that could land on
  // the heading instead of the field (seen once in CI as a table that never opened).
  await page.waitForFunction("document.activeElement !== null && document.activeElement.id === 'screen-title'");
  const field = page.getByLabel("Table number");
  await field.fill(String(tableId));
  await field.press("Enter");
  await page.getByRole("heading", { level: 1, name: `Table ${tableId}` }).waitFor();
  await page.getByTestId("game-state").waitFor();
}

export async function sit(page: Page, amount: string): Promise<void> {
  await page.getByLabel("Buy-in amount").fill(amount);
  await page.getByRole("button", { name: "Sit down" }).click();
  await page.getByRole("status").filter({ hasText: "Seated at seat" }).waitFor();
  await page.getByTestId("my-seat-balance").waitFor();
}

/** Waits until the page shows the game in `state` (e.g. STATUS_FLOP). */
export async function waitForState(page: Page, state: string): Promise<void> {
  await page.locator(`[data-testid="game-state"][data-state="${state}"]`).waitFor({ timeout: 60_000 });
}

export async function advance(page: Page, button: string, to: string): Promise<void> {
  await page.getByRole("button", { name: button }).click();
  await waitForState(page, to);
}

/**
 * The hand of the favourite badge at the current stage (the first hand that can take a bet else);
 * null when no hand takes a bet (a board that ties every hand leaves none with a win chance).
 */
export async function handToBackIndex(page: Page): Promise<number | null> {
  const hands = page.locator('[data-testid^="hand-"]');
  const count = await hands.count();
  let firstOpen: number | undefined;
  for (let i = 0; i < count; i++) {
    const hand = page.getByTestId(`hand-${i}`);
    if ((await hand.getByTestId(`bet-${i}`).count()) === 0) continue;
    firstOpen ??= i;
    if ((await hand.locator('h3 [data-status="IN_PLAY_FAVOURITE"]').count()) > 0) return i;
  }
  return firstOpen ?? null;
}

/** Bets on a hand with its form and waits for the bet in the bets table; returns the odds shown. */
export async function bet(page: Page, handIndex: number, amount: string): Promise<number> {
  const mine = page
    .getByTestId("bets")
    .locator("tbody tr")
    .filter({ has: page.locator('td:first-child [data-testid="you"]') });
  const before = await mine.count();
  const form = page.getByTestId(`bet-${handIndex}`);
  await form.getByLabel(`Stake on hand ${handIndex + 1}`).fill(amount);
  const button = form.getByRole("button", { name: /^Bet at / });
  const odds = Number((await button.innerText()).replace("Bet at ", ""));
  await button.click();
  await mine.nth(before).waitFor();
  await page
    .getByRole("status")
    .filter({ hasText: `on hand ${handIndex + 1} at odds` })
    .waitFor();
  return odds;
}

/**
 * The controls in view that something else covers at their centre (a person could not click
 * them there): empty when nothing, a pinned banner say, sits over a button, field or link.
 */
export async function coveredControls(page: Page): Promise<string[]> {
  // A string, not a function: the tests are type-checked without the DOM's types.
  return page.evaluate(`[...document.querySelectorAll("button, input, select, a[href], summary")]
    .filter((control) => {
      const box = control.getBoundingClientRect();
      if (box.height === 0 || box.top < 0 || box.bottom > innerHeight) return false;
      const hit = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
      return hit === null || !(hit === control || control.contains(hit) || hit.contains(control));
    })
    .map((control) => control.outerHTML.slice(0, 100))`);
}
