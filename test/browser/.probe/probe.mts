import { startTestStack } from "../../helpers/stack.ts";
import { launchBrowser } from "../helpers/browser.ts";
const stack = await startTestStack();
const browser = await launchBrowser();
try {
  const context = await browser.newContext({ baseURL: stack.url });
  const page = await context.newPage();
  page.on("console", (m) => console.log("console", m.type(), m.text()));
  page.on("requestfailed", (r) => console.log("failed", r.url(), r.failure()?.errorText));
  page.on("response", (r) => {
    if (!r.url().includes("/state")) console.log("response", r.status(), r.url());
  });
  await page.goto("/");
  await page.getByLabel("Player id").fill("probe");
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.getByTestId("account-balance").waitFor();
  await page.goto("/#/table/1");
  for (let i = 0; i < 8; i++) {
    await page.waitForTimeout(1000);
    console.log(
      "mode",
      await page.getByTestId("live-mode").getAttribute("data-mode"),
      await page.getByTestId("live-mode").innerText(),
    );
  }
} catch (e) {
  console.log("error", e);
} finally {
  await browser.close();
  await stack.stop();
}
