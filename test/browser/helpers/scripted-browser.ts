// One headless Chromium and one scripted API (scripted-api.ts) for the tests of a file, each page in
// a browser profile of its own; everything is closed when the file is done.
import type { TestFn } from "ava";
import type { Browser } from "playwright-core";
import { launchBrowser, openPage, type Watched } from "./browser.js";
import { startScriptedApi, tableState, type ScriptedApi } from "./scripted-api.js";

interface ScriptedBrowser {
  /** The file's scripted API, showing an empty table until a test sets another state. */
  readonly api: ScriptedApi;
  /** The pages opened so far, oldest first. */
  readonly opened: readonly Watched[];
  /** A page in a fresh profile (so its own player) at `viewport`, on the scripted API's origin, not yet navigated. */
  openPage(viewport: { width: number; height: number }): Promise<Watched>;
}

/**
 * Registers the file's before and after hooks: call it once, at the top of the test file.
 * `setUp` gives the scripted API what every test of the file expects (ava runs before hooks at once).
 */
export function useScriptedBrowser(test: TestFn, setUp?: (api: ScriptedApi) => void): ScriptedBrowser {
  let browser: Browser | undefined;
  let api: ScriptedApi | undefined;
  const opened: Watched[] = [];

  test.before(async () => {
    browser = await launchBrowser();
    api = await startScriptedApi(tableState("STATUS_START", -1, []));
    setUp?.(api);
  });

  // Contexts close together at the end: this single-process Chromium ends with its first closed context.
  test.after.always(async () => {
    await Promise.all(opened.map((watched) => watched.context.close().catch(() => {})));
    await browser?.close();
    await api?.close();
  });

  const started = () => {
    if (!browser || !api) throw new Error("the browser or the scripted API did not start");
    return { browser, api };
  };

  return {
    get api() {
      return started().api;
    },
    opened,
    async openPage(viewport) {
      const { browser, api } = started();
      const watched = await openPage(browser, api.url, viewport);
      opened.push(watched);
      return watched;
    },
  };
}
