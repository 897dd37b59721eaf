// The lobby in a real headless Chromium against the scripted API (helpers/scripted-api.ts). The API
// lists every active table, other players' personal tables too (docs/decisions.md); the lobby links
// those the player may open and counts the rest, which would only answer 403.
import test, { type ExecutionContext } from "ava";
import { signIn } from "./helpers/client.js";
import { useScriptedBrowser } from "./helpers/scripted-browser.js";

const scripted = useScriptedBrowser(test, (api) => {
  api.lobby = {
    tables: [2, 7, 1337, 20481].map((tableId) => ({ tableId, playerCount: 1, gameState: "WAITING" })),
    totalActivePlayers: 4,
  };
  api.profiles.set("pat", { role: "PAYING_USER", personalTableId: 1337 });
  api.profiles.set("ada", { role: "ADMIN", personalTableId: 1001 });
});

/** The lobby `playerId` sees: the tables it links, and its line about the others, if any. */
async function lobbyOf(t: ExecutionContext, playerId: string): Promise<{ linked: string[]; others: string | null }> {
  const { page } = await scripted.openPage({ width: 1024, height: 768 });
  await page.goto("/");
  await signIn(page, playerId);
  const list = page.getByTestId("active-tables");
  await list.getByRole("link").first().waitFor();
  const others = page.getByTestId("others-personal-tables");
  return {
    linked: await list.getByRole("link").allInnerTexts(),
    others: (await others.count()) === 0 ? null : await others.innerText(),
  };
}

test("a player sees the public tables linked, and other players' personal tables counted, not linked", async (t) => {
  t.deepEqual(await lobbyOf(t, "eve"), {
    linked: ["Table 2", "Table 7"],
    others: "Also active: 2 personal tables of other players, where only their owners play.",
  });
});

test("a paying player's own personal table is linked with the public ones", async (t) => {
  t.deepEqual(await lobbyOf(t, "pat"), {
    linked: ["Table 2", "Table 7", "Table 1337"],
    others: "Also active: 1 personal table of other players, where only their owners play.",
  });
});

test("an ADMIN, who may open any table, sees every one linked", async (t) => {
  t.deepEqual(await lobbyOf(t, "ada"), {
    linked: ["Table 2", "Table 7", "Table 1337", "Table 20481"],
    others: null,
  });
});
