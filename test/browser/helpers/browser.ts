// A real headless Chromium for the browser tests: the one shipped inside the npm package
// @sparticuz/chromium (unpacked to /tmp on first use), driven by playwright-core. Nothing is
// downloaded at test time, and a browser that cannot start fails the test: it never skips.
import chromium from "@sparticuz/chromium";
import type { ExecutionContext } from "ava";
import { existsSync } from "node:fs";
import { mkdir, readFile, rename, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium as playwright, type Browser, type BrowserContext, type Page } from "playwright-core";

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");

/** Screenshots of every stage, kept for a person to look at (gitignored). */
const artifactsDir = join(repoRoot, "test-artifacts", "browser");

// Flags meant for serverless sandboxes that would hide what a real browser enforces: the tests
// must see the same-origin policy and the gateway's Content-Security-Policy at work.
const WEAKENING_FLAGS = new Set(["--disable-web-security", "--allow-running-insecure-content"]);

/**
 * The package's browser, unpacked once per package version under .cache/chromium/. The package
 * itself unpacks to the shared $TMPDIR and reuses any /tmp/chromium it finds, whatever its version;
 * and ava runs test files in parallel processes, which could each find the other's half-written
 * binary. So each process unpacks into a private directory and renames it into place (atomic): the
 * first one to finish wins, the others use its copy.
 */
async function unpackedChromium(): Promise<string> {
  const require = createRequire(import.meta.url);
  const entry = require.resolve("@sparticuz/chromium");
  const packageJson = join(entry.slice(0, entry.lastIndexOf(`${sep}build${sep}`)), "package.json");
  const { version } = JSON.parse(await readFile(packageJson, "utf8")) as { version: string };
  const home = join(repoRoot, ".cache", "chromium", version);
  const binary = join(home, "chromium");
  if (existsSync(binary)) return binary;
  const staging = `${home}.partial-${process.pid}`;
  await rm(staging, { recursive: true, force: true });
  await mkdir(staging, { recursive: true });
  const tmpdir = process.env.TMPDIR;
  process.env.TMPDIR = staging; // read by os.tmpdir(), where the package unpacks
  try {
    const unpacked = await chromium.executablePath();
    if (unpacked !== join(staging, "chromium")) throw new Error(`unpacked to ${unpacked}, not ${staging}`);
  } finally {
    if (tmpdir === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = tmpdir;
  }
  try {
    await rename(staging, home);
  } catch (error) {
    await rm(staging, { recursive: true, force: true });
    if (!existsSync(binary)) throw error;
  }
  return binary;
}

export async function launchBrowser(): Promise<Browser> {
  let executablePath: string;
  try {
    executablePath = await unpackedChromium();
  } catch (error) {
    throw new Error(`@sparticuz/chromium could not unpack its browser: ${String(error)}`);
  }
  try {
    return await playwright.launch({
      executablePath,
      args: chromium.args.filter((arg) => !WEAKENING_FLAGS.has(arg)),
      headless: true,
      timeout: 120_000,
    });
  } catch (error) {
    throw new Error(`headless Chromium (${executablePath}) did not start: ${String(error)}`);
  }
}

export interface Watched {
  context: BrowserContext;
  page: Page;
  /** Uncaught page errors, console errors and CSP refusals seen so far. */
  problems: string[];
}

/**
 * A fresh browser profile (its own sessionStorage, so its own player) with one page, watched for
 * anything the page reports going wrong.
 */
export async function openPage(
  browser: Browser,
  baseURL: string,
  viewport: { width: number; height: number },
): Promise<Watched> {
  const context = await browser.newContext({ baseURL, viewport });
  context.setDefaultTimeout(60_000);
  context.setDefaultNavigationTimeout(60_000);
  const page = await context.newPage();
  const problems: string[] = [];
  page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
  page.on("console", (message) => {
    // A 4xx the page handles (a NACK-free refusal shown as a message) is logged by Chromium as a
    // failed resource load; it is not a fault of the page.
    if (message.type() === "error" && !/Failed to load resource/.test(message.text())) {
      problems.push(`console error: ${message.text()}`);
    }
  });
  return { context, page, problems };
}

export async function screenshot(page: Page, name: string): Promise<string> {
  await mkdir(artifactsDir, { recursive: true });
  const path = join(artifactsDir, `${name}.png`);
  await page.screenshot({ path, fullPage: true });
  return path;
}

let axeSource: Promise<string> | undefined;

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: unknown[] }[];
}

/**
 * Runs axe-core on the page as it is and fails on any serious or critical violation. The script is
 * evaluated through the DevTools protocol, which the page's CSP does not govern, so the page's own
 * policy stays as strict as the gateway serves it.
 */
export async function expectAccessible(t: ExecutionContext, page: Page, screen: string): Promise<void> {
  axeSource ??= readFile(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");
  await page.evaluate(await axeSource);
  const violations = (await page.evaluate(
    "axe.run(document, { resultTypes: ['violations'] }).then((r) => r.violations)",
  )) as AxeViolation[];
  const serious = violations.filter((v) => v.impact === "serious" || v.impact === "critical");
  const described = serious.map(
    (v) => `${v.impact} ${v.id}: ${v.help} at ${v.nodes.map((n) => JSON.stringify(n.target)).join(", ")}`,
  );
  t.deepEqual(described, [], `axe-core on the ${screen} screen`);
  const minor = violations.filter((v) => !serious.includes(v)).map((v) => `${v.impact} ${v.id}`);
  if (minor.length > 0) t.log(`axe-core, ${screen} (minor, not failing): ${minor.join(", ")}`);
}
