// The lobby's account statement in a real headless Chromium against the scripted API: each page is
// read once however often its button is pressed, older pages are appended without showing an entry
// twice, and a refused page is said beside the button that asked, the rows shown staying.
import test from "ava";
import type { AccountStatementBody } from "@pokerodds/api/players";
import { signIn } from "./helpers/client.js";
import { useScriptedBrowser } from "./helpers/scripted-browser.js";

const MOVEMENTS = 25;

const scripted = useScriptedBrowser(test, (api) => {
  api.ledger = Array.from({ length: MOVEMENTS }, (_, i) => entry(i + 1));
});

/** The account's entry `sequence`: the welcome credit, then buy-ins of 1.00 each. */
function entry(sequence: number): AccountStatementBody["entries"][number] {
  const welcome = sequence === 1;
  return {
    sequence,
    at: new Date(Date.UTC(2026, 11, 3, 12, sequence)).toISOString(),
    kind: welcome ? "WELCOME" : "DEBIT",
    reason: welcome ? "welcome" : "sit",
    amount: welcome ? 1000 : -1,
    balanceAfter: 1000 - (sequence - 1),
    applied: true,
    requested: welcome ? 1000 : 1,
    refusal: null,
    reference: welcome ? "welcome" : `transfer-${sequence}`,
    tableId: welcome ? null : 1,
  };
}

async function openLobby(viewport = { width: 1024, height: 768 }) {
  const { page } = await scripted.openPage(viewport);
  await page.goto("/");
  await signIn(page, "eve");
  const rows = page.getByTestId("statement").locator("tbody tr");
  const sequences = async () => (await rows.evaluateAll((all) => all.map((row) => row.dataset.sequence))).map(Number);
  return { page, rows, sequences };
}

const newestFirst = (from: number, to: number) => Array.from({ length: from - to + 1 }, (_, i) => from - i);

test.serial("a double click on the statement's buttons reads each page once", async (t) => {
  const { api } = scripted;
  Object.assign(api, { ledgerReads: [], ledgerDelayMs: 400, ledgerRepeats: 0, ledgerRefusals: 0 });
  const { page, rows, sequences } = await openLobby();
  await page.getByRole("button", { name: "Show recent movements" }).dblclick();
  await rows.nth(9).waitFor();
  await page.getByRole("button", { name: "Older movements" }).dblclick();
  await rows.nth(19).waitFor();
  t.deepEqual(api.ledgerReads, [
    { before: null, limit: 10 },
    { before: 16, limit: 10 },
  ]);
  t.deepEqual(await sequences(), newestFirst(25, 6));
});

test.serial("older pages are appended below, every entry once, until the welcome credit", async (t) => {
  const { api } = scripted;
  Object.assign(api, { ledgerReads: [], ledgerDelayMs: 0, ledgerRepeats: 2, ledgerRefusals: 0 });
  const { page, rows, sequences } = await openLobby();
  await page.getByRole("button", { name: "Show recent movements" }).click();
  await rows.nth(9).waitFor();
  const older = page.getByRole("button", { name: "Older movements" });
  await older.click();
  // The second page repeats 17 and 16, already shown: 8 rows are new.
  await rows.nth(17).waitFor();
  await older.click();
  await rows.nth(24).waitFor();
  t.deepEqual(await sequences(), newestFirst(MOVEMENTS, 1));
  t.is(await older.count(), 0, "no older page after the first entry");
  t.is(await rows.last().locator("td").nth(1).innerText(), "Welcome credit");
});

test.serial("a refused older page is said beside its button, and the rows shown stay", async (t) => {
  const { api } = scripted;
  Object.assign(api, { ledgerReads: [], ledgerDelayMs: 0, ledgerRepeats: 0, ledgerRefusals: 0 });
  const { page, rows, sequences } = await openLobby();
  await page.getByRole("button", { name: "Show recent movements" }).click();
  await rows.nth(9).waitFor();
  api.ledgerRefusals = 1;
  const older = page.getByRole("button", { name: "Older movements" });
  await older.click();
  const refusal = page.getByRole("alert").filter({ hasText: "too many history reads" });
  await refusal.waitFor();
  t.deepEqual(await sequences(), newestFirst(25, 16));
  // Beside the button that asked: right below it, not at the top of the statement.
  const [button, notice] = [await older.boundingBox(), await refusal.boundingBox()];
  t.true(button !== null && notice !== null && notice.y >= button.y + button.height);
  await older.click();
  await rows.nth(19).waitFor();
  t.is(await refusal.count(), 0, "the refusal is gone once the page is read");
});

test.serial("a refused movement says how much was refused and why", async (t) => {
  const { api } = scripted;
  Object.assign(api, { ledgerReads: [], ledgerDelayMs: 0, ledgerRepeats: 0, ledgerRefusals: 0 });
  const kept = api.ledger;
  t.teardown(() => (api.ledger = kept));
  const last = entry(MOVEMENTS + 1);
  api.ledger = [
    ...kept,
    {
      ...last,
      amount: 0,
      balanceAfter: last.balanceAfter + 1,
      applied: false,
      requested: 5000,
      refusal: "INSUFFICIENT_FUNDS",
    },
    {
      ...entry(MOVEMENTS + 2),
      kind: "CREDIT",
      reason: "payout",
      amount: 0,
      balanceAfter: last.balanceAfter + 1,
      applied: false,
      requested: 7.5,
      refusal: "BALANCE_LIMIT",
      reference: "T1-3",
    },
  ];
  const { page, rows } = await openLobby();
  await page.getByRole("button", { name: "Show recent movements" }).click();
  await rows.nth(1).waitFor();
  const what = async (row: number) => rows.nth(row).locator("td").nth(1).innerText();
  t.regex(await what(1), /\(5,000\.00 refused: not enough money\)$/);
  t.regex(await what(0), /game T1-3 \(7\.50 refused: the account would pass its largest balance\)$/);
});

test.serial("on a phone the statement's everyday figures fit: its box does not scroll sideways", async (t) => {
  const { api } = scripted;
  Object.assign(api, { ledgerReads: [], ledgerDelayMs: 0, ledgerRepeats: 0, ledgerRefusals: 0 });
  const kept = api.ledger;
  t.teardown(() => (api.ledger = kept));
  // The welcome credit on the first page: the widest everyday amount, +1,000.00.
  api.ledger = kept.slice(0, 4);
  const { page } = await openLobby({ width: 375, height: 812 });
  await page.getByRole("button", { name: "Show recent movements" }).click();
  const table = page.getByTestId("statement");
  await table.waitFor();
  const box = `document.querySelector('[data-testid="statement"]').parentElement`;
  t.is(await page.evaluate(`${box}.scrollWidth - ${box}.clientWidth`), 0, "the Balance column is whole");
  t.is(
    await page.getByRole("region", { name: "Account statement" }).count(),
    1,
    "the panel's region only: its scroll box has a name of its own",
  );
});
