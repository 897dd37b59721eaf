// API conformance: schemathesis (PyPI, pinned in requirements.txt) drives a real stack from the
// stack's own GET /api/openapi.json, with every check and every phase (examples, coverage, fuzzing,
// and stateful, which follows the document's links), and any finding fails the run.
//
//   node --import=tsx/esm test/schemathesis/run.ts             (after `npm run build`)
//   node --import=tsx/esm test/schemathesis/run.ts --prepare   (only the virtualenv)
//
// It needs Python 3.13 (schemathesis crashed inside Hypothesis on this machine's 3.11): found as
// $TEST_PYTHON, `python3.13` on PATH, or under pyenv's root (helpers/python.ts); without it the run fails, never
// skips. The virtualenv is kept in .cache/schemathesis-venv and made again when requirements.txt or
// the interpreter changes. The stack is fresh (startTestStack: free ports, its own DATA_DIR, rate
// limits and the bulk cap off, or schemathesis would mostly see 429s) and stopped afterwards.
//
// Two passes, each a player of the stack's development issuer whose profile exists (so sits and bets
// can succeed): a BASIC_USER over every operation, then an ADMIN over those whose answer depends on
// the role (every one but health, the document, deal and bulk). The output of the last run is kept in
// .cache/schemathesis-run/. SCHEMATHESIS_SEED and SCHEMATHESIS_MAX_EXAMPLES change the generation.
// What the tool must be told about this API (event streams, idempotency keys) is in schemathesis.toml,
// each with its reason. `--checks all` includes ST112: a response slower than 10 s is a finding.
import { repoPath } from "@pokerodds/launcher/paths";
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { findPython, versionOf } from "../helpers/python.js";
import { startTestStack, type TestStack } from "../helpers/stack.js";
import { devToken } from "../helpers/tokens.js";

const REQUIREMENTS = repoPath("test/schemathesis/requirements.txt");
const CONFIG = repoPath("test/schemathesis/schemathesis.toml");
const VENV = repoPath(".cache/schemathesis-venv");
const WORK_DIR = repoPath(".cache/schemathesis-run");
const STAMP = join(VENV, "pokerodds-stamp");
const ST = join(VENV, "bin", "st");

const SEED = Number(process.env.SCHEMATHESIS_SEED ?? 20_260_901);
const MAX_EXAMPLES = Number(process.env.SCHEMATHESIS_MAX_EXAMPLES ?? 60);
/** The player of the first pass when the document gives no example playerId. */
const DEFAULT_PLAYER = "schemathesis-player";
const ADMIN = "schemathesis-admin";

type Role = "BASIC_USER" | "ADMIN";

interface Pass {
  name: string;
  role: Role;
  /** Selection options of `st run` (none: every operation). */
  select: string[];
}

const PASSES: Pass[] = [
  { name: "player", role: "BASIC_USER", select: [] },
  {
    name: "admin",
    role: "ADMIN",
    // The answers of these do not depend on the caller's role: the first pass covered them.
    select: ["--exclude-path-regex", "^/api/(health|openapi\\.json|deal|games/bulk)$"],
  },
];

interface PassResult {
  name: string;
  subject: string;
  exitCode: number;
  /** schemathesis's whole output. */
  output: string;
  /**
   * Its FAILURES section (empty when none), without the `st replay` hints (no example database) and
   * with the token as $TOKEN.
   */
  failures: string;
  /** Its WARNINGS section (empty when none): reported, not failed on. */
  warnings: string;
  /** Its closing line, e.g. "16 failures, 1 warning in 85.53s" or "No issues found in 60.2s". */
  verdict: string;
  /** Its "API Links: ..." line of the stateful phase, if the phase ran. */
  links: string;
}

interface SchemathesisResult {
  ok: boolean;
  passes: PassResult[];
  /** Links the document declares (responses' `links`); the stateful phase follows them. */
  declaredLinks: number;
  /** Problems of the run itself (e.g. the stateful phase skipped although links exist). */
  problems: string[];
  /** Every pass's verdict and findings, for a test failure or the console. */
  report: string;
  /** Where the outputs were written. */
  workDir: string;
}

// --- The virtualenv ---------------------------------------------------------------------------

function runCommand(command: string, args: string[], cwd = repoPath(".")): Promise<{ code: number; output: string }> {
  return new Promise((resolve, reject) => {
    const env = { ...process.env };
    for (const name of ["NODE_OPTIONS", "PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV"]) delete env[name];
    const child = spawn(command, args, { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    const chunks: Buffer[] = [];
    child.stdout.on("data", (chunk: Buffer) => chunks.push(chunk));
    child.stderr.on("data", (chunk: Buffer) => chunks.push(chunk));
    child.on("error", reject);
    child.on("close", (code, signal) =>
      resolve({ code: code ?? (signal ? 128 : 1), output: Buffer.concat(chunks).toString("utf8") }),
    );
  });
}

async function must(command: string, args: string[]): Promise<void> {
  const { code, output } = await runCommand(command, args);
  if (code !== 0) throw new Error(`${command} ${args.join(" ")} failed (exit ${code}):\n${output}`);
}

/**
 * The virtualenv with exactly requirements.txt, made with Python 3.13 when missing or stale (the
 * stamp records both). Answers the path of `st`.
 */
async function prepareSchemathesis(log: (line: string) => void = () => {}): Promise<string> {
  const python = findPython("schemathesis");
  const requirements = await readFile(REQUIREMENTS, "utf8");
  const stamp = createHash("sha256")
    .update(`${python}\n${versionOf(python)}\n${requirements}`)
    .digest("hex");
  const current = await readFile(STAMP, "utf8").catch(() => "");
  if (current === stamp && existsSync(ST)) return ST;
  log(`making ${VENV} with ${python} (schemathesis as pinned in ${REQUIREMENTS})`);
  await rm(VENV, { recursive: true, force: true });
  await must(python, ["-m", "venv", VENV]);
  const pip = join(VENV, "bin", "pip");
  await must(pip, ["install", "--quiet", "--disable-pip-version-check", "--requirement", REQUIREMENTS]);
  const version = await runCommand(ST, ["--version"]);
  if (version.code !== 0) throw new Error(`st --version failed:\n${version.output}`);
  await writeFile(STAMP, stamp);
  log(version.output.trim());
  return ST;
}

// --- the run -------------------------------------------------------------------------------------

type Document = { paths?: Record<string, Record<string, unknown>> };

interface ParameterLike {
  name?: string;
  in?: string;
  example?: unknown;
  examples?: Record<string, { value?: unknown }>;
  schema?: { example?: unknown; examples?: unknown[] };
}

/** The playerId the document's example of GET /api/players/{playerId} names, if any: the first pass's player. */
function documentedPlayerId(document: Document): string | undefined {
  const get = document.paths?.["/api/players/{playerId}"]?.get as { parameters?: ParameterLike[] } | undefined;
  const parameter = get?.parameters?.find((p) => p.name === "playerId" && p.in === "path");
  const candidates = [
    parameter?.example,
    ...Object.values(parameter?.examples ?? {}).map((example) => example.value),
    parameter?.schema?.example,
    ...(parameter?.schema?.examples ?? []),
  ];
  return candidates.find((value): value is string => typeof value === "string" && value.trim() !== "");
}

/** How many links the document's responses declare. */
function countLinks(document: Document): number {
  let links = 0;
  for (const operations of Object.values(document.paths ?? {})) {
    for (const operation of Object.values(operations)) {
      const responses = (operation as { responses?: Record<string, { links?: object }> })?.responses ?? {};
      for (const response of Object.values(responses)) links += Object.keys(response.links ?? {}).length;
    }
  }
  return links;
}

/** The pass's token in reproductions: the test stack is gone by the time anyone reads them. */
const withoutToken = (text: string) => text.replace(/Bearer [\w-]+\.[\w-]+\.[\w-]+/g, "Bearer $TOKEN");

function section(output: string, title: string): string {
  const lines = output.split("\n");
  const start = lines.findIndex((line) => new RegExp(`^=+ ${title} =+$`).test(line));
  if (start === -1) return "";
  const end = lines.findIndex((line, i) => i > start && /^=+ [A-Z].* =+$/.test(line));
  return lines
    .slice(start + 1, end === -1 ? undefined : end)
    .filter((line) => !/^\s*st replay \S+\s*$/.test(line))
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

function stArguments(stack: TestStack, token: string, pass: Pass): string[] {
  return [
    "--config-file",
    CONFIG,
    "run",
    `${stack.url}/api/openapi.json`,
    "--url",
    stack.url,
    "--checks",
    "all",
    "--phases",
    "examples,coverage,fuzzing,stateful",
    "--header",
    `Authorization: Bearer ${token}`,
    "--max-examples",
    String(MAX_EXAMPLES),
    "--seed",
    String(SEED),
    "--continue-on-failure",
    // Deterministic: no examples carried over from an earlier run.
    "--generation-database",
    "none",
    "--workers",
    "2",
    "--request-timeout",
    "30",
    // The tokens are a throwaway stack's; without them the printed curl commands do not reproduce.
    "--output-sanitize",
    "false",
    "--no-color",
    "--report",
    "junit",
    "--report-junit-path",
    join(WORK_DIR, `${pass.name}.junit.xml`),
    ...pass.select,
  ];
}

async function runPass(st: string, stack: TestStack, pass: Pass, subject: string): Promise<PassResult> {
  const token = await devToken(stack.dataDir, subject, pass.role);
  // The player's profile (and its welcome credit) exists before the first sit.
  const profile = await fetch(`${stack.url}/api/players/${encodeURIComponent(subject)}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  if (profile.status !== 200) throw new Error(`profile of ${subject}: ${profile.status} ${await profile.text()}`);
  const { code, output } = await runCommand(st, stArguments(stack, token, pass), WORK_DIR);
  await writeFile(join(WORK_DIR, `${pass.name}.txt`), output);
  const lines = output.trimEnd().split("\n");
  return {
    name: pass.name,
    subject,
    exitCode: code,
    output,
    failures: withoutToken(section(output, "FAILURES")),
    warnings: withoutToken(section(output, "WARNINGS")),
    verdict: (lines.at(-1) ?? "").replace(/^=+ | =+$/g, ""),
    links: lines.find((line) => /^\s*API Links:/.test(line))?.trim() ?? "",
  };
}

function reportOf(result: Omit<SchemathesisResult, "report" | "ok">): string {
  const parts = [
    `links declared in the document: ${result.declaredLinks}`,
    "reproductions: $TOKEN is `npm run --silent token -- <player> [--role ADMIN]` for your stack (npm start), " +
      "whose port replaces the test stack's",
  ];
  for (const pass of result.passes) {
    parts.push(
      `--- pass "${pass.name}" (token of ${pass.subject}): exit ${pass.exitCode}: ${pass.verdict}` +
        (pass.links ? `\n${pass.links}` : "\nstateful phase: no links followed") +
        (pass.failures ? `\n\n${pass.failures}` : "") +
        (pass.warnings ? `\n\nwarnings (not failed on):\n${pass.warnings}` : ""),
    );
  }
  if (result.problems.length > 0) parts.push(`--- problems of the run:\n${result.problems.join("\n")}`);
  parts.push(`outputs: ${result.workDir}`);
  return parts.join("\n");
}

/** Prepares the virtualenv, starts a fresh stack, runs both passes, stops the stack. */
export async function runSchemathesis(log: (line: string) => void = () => {}): Promise<SchemathesisResult> {
  const st = await prepareSchemathesis(log);
  await rm(WORK_DIR, { recursive: true, force: true });
  await mkdir(WORK_DIR, { recursive: true });
  const stack = await startTestStack();
  let ok = false;
  try {
    const document = (await (await fetch(`${stack.url}/api/openapi.json`)).json()) as Document;
    const declaredLinks = countLinks(document);
    const player = documentedPlayerId(document) ?? DEFAULT_PLAYER;
    const passes: PassResult[] = [];
    const problems: string[] = [];
    for (const pass of PASSES) {
      log(`schemathesis pass "${pass.name}" against ${stack.url} (seed ${SEED}, ${MAX_EXAMPLES} examples)`);
      const result = await runPass(st, stack, pass, pass.role === "ADMIN" ? ADMIN : player);
      passes.push(result);
      log(`  exit ${result.exitCode}: ${result.verdict}`);
      if (declaredLinks > 0 && /⏭\s+Stateful/.test(result.output)) {
        problems.push(`pass "${pass.name}": the stateful phase was skipped although the document declares links`);
      }
    }
    ok = passes.every((pass) => pass.exitCode === 0) && problems.length === 0;
    const partial = { passes, declaredLinks, problems, workDir: WORK_DIR };
    return { ok, ...partial, report: reportOf(partial) };
  } finally {
    if (!ok) log(`stack output kept in ${stack.logFile}`);
    await stack.stop({ keepData: !ok });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const log = (line: string) => console.log(line);
  if (process.argv.includes("--prepare")) {
    console.log(`schemathesis ready: ${await prepareSchemathesis(log)}`);
  } else {
    const result = await runSchemathesis(log);
    for (const pass of result.passes) console.log(`\n===== pass "${pass.name}": full output =====\n${pass.output}`);
    console.log(`\n===== API conformance: ${result.ok ? "clean" : "FINDINGS"} =====\n${result.report}`);
    process.exitCode = result.ok ? 0 : 1;
  }
}
