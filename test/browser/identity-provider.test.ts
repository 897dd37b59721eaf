// With a real identity provider (AUTH_JWKS_URL set) the development sign-in is gone, from the API and
// from the screen, and the client signs in with OpenID Connect (authorization code + PKCE) instead:
// here against a small provider of the test's own on 127.0.0.1, in a real headless Chromium.
import test from "ava";
import type { Browser } from "playwright-core";
import { stackPerFile } from "../helpers/stack.js";
import { expectAccessible, launchBrowser, openPage, screenshot } from "./helpers/browser.js";
import { centsIn } from "./helpers/client.js";
import { startFakeIdp } from "./helpers/fake-idp.js";

// Its ID token names another subject than its access token, as some providers' do (per application).
const idp = await startFakeIdp({
  sub: "oidc-player-7",
  email: "seven@example.com",
  name: "Player Seven",
  idTokenSub: "pairwise-0b7e",
});
const file = stackPerFile(test, {
  env: {
    AUTH_JWKS_URL: idp.jwksUrl,
    AUTH_ISSUER: idp.issuer,
    AUTH_AUDIENCE: idp.audience,
    AUTH_CLIENT_ID: idp.clientId,
  },
});
let browser: Browser | undefined;

test.before(async () => {
  browser = await launchBrowser();
});

test.after.always(async () => {
  await browser?.close();
  await idp.close();
});

test.serial("POST /api/dev/token is a 404 and the config offers OpenID Connect only", async (t) => {
  const url = file.stack.url;
  const token = await fetch(`${url}/api/dev/token`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ playerId: "mallory", role: "ADMIN" }),
  });
  t.is(token.status, 404);
  t.is(typeof ((await token.json()) as { error?: unknown }).error, "string", "an { error } body");
  const config = await fetch(`${url}/api/client-config`);
  t.is(config.status, 200);
  t.deepEqual(await config.json(), {
    devSignIn: false,
    oidc: { issuer: idp.issuer, clientId: idp.clientId, audience: idp.audience },
  });
});

test.serial("the sign-in screen offers no development sign-in; OIDC with PKCE signs the player in", async (t) => {
  t.timeout(10 * 60_000);
  if (!browser) throw new Error("the browser did not start");
  const watched = await openPage(browser, file.stack.url, { width: 375, height: 812 });
  const { page } = watched;
  try {
    await page.goto("/");
    const button = page.getByRole("button", { name: `Sign in with ${new URL(idp.issuer).host}` });
    await button.waitFor();
    t.is(await page.getByTestId("dev-sign-in").count(), 0, "no development sign-in form");
    t.is(await page.getByLabel("Player id").count(), 0);
    t.is(await page.getByRole("heading", { name: "Development sign-in" }).count(), 0);
    await screenshot(page, "10-sign-in-oidc");
    await expectAccessible(t, page, "sign-in (identity provider)");

    await button.click();
    await page.getByRole("heading", { level: 1, name: "Lobby" }).waitFor();
    const sent = idp.authorizations.at(-1)!;
    t.is(sent.get("code_challenge_method"), "S256");
    t.is(sent.get("prompt"), "login", "credentials at every sign-in, not the provider's last session");
    t.is(sent.get("response_type"), "code");
    t.is(sent.get("redirect_uri"), `${file.stack.url}/`);
    t.is(sent.get("audience"), idp.audience, "the API's audience, which Auth0 needs to issue a JWT for it");
    t.is(new URL(page.url()).search, "", "the code is gone from the address bar");
    t.is(await page.getByTestId("signed-in-as").innerText(), "oidc-player-7");
    const balance = page.getByTestId("account-balance");
    await balance.waitFor();
    t.is(await centsIn(balance), 100_000, "the API accepted the provider's access token: a new player's welcome");
    t.regex(await page.getByRole("heading", { level: 2, name: "Player Seven" }).innerText(), /Player Seven/);
    t.deepEqual(watched.problems, []);
  } finally {
    await watched.context.close();
  }
});

test.serial(
  "a sign-in in its last minutes says when it ends; at its end the player is signed out, and signs in back to the table",
  async (t) => {
    t.timeout(10 * 60_000);
    // A browser of its own: the single-process Chromium ends with its first context closed.
    const own = await launchBrowser();
    t.teardown(() => own.close());
    const watched = await openPage(own, file.stack.url, { width: 1280, height: 900 });
    const { page } = watched;
    const signInButton = page.getByRole("button", { name: `Sign in with ${new URL(idp.issuer).host}` });
    const atTable = page.getByRole("heading", { level: 1, name: /Table 3/ });
    try {
      // Tokens of four minutes: inside the last five from the start.
      idp.tokenSeconds = 240;
      await page.goto("/#/table/3");
      await signInButton.click();
      await atTable.waitFor();
      t.is(new URL(page.url()).hash, "#/table/3", "back at the screen the sign-in started from");
      const ending = page.getByTestId("session-ending");
      await ending.waitFor();
      t.regex(await ending.innerText(), /^Your sign-in ends at .+: a move made after that is not sent\./);
      await expectAccessible(t, page, "table with the sign-in ending");

      // Signing in again from it gives a new token and keeps the table.
      idp.tokenSeconds = 3;
      await page.getByRole("button", { name: "Sign in again now" }).click();
      await signInButton.click();
      await atTable.waitFor();
      // When the token runs out the player is signed out at once, not at the next move.
      await page
        .getByRole("alert")
        .filter({ hasText: "Your sign-in has ended: sign in again to go on playing." })
        .waitFor();
      // The alert and the header's button render apart: a busy machine showed the one a moment first.
      await signInButton.waitFor({ timeout: 10_000 });
      t.true(await signInButton.isVisible());
      idp.tokenSeconds = 600;
      await signInButton.click();
      await atTable.waitFor();
      t.is(await page.getByTestId("session-ending").count(), 0, "no notice with ten minutes left");
      t.deepEqual(watched.problems, []);
    } finally {
      idp.tokenSeconds = 600;
    }
  },
);
