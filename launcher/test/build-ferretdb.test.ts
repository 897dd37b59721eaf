// `npm run build:db` (launcher/build-ferretdb.mjs) says what it does on a first build and nothing on
// a later one. Run against an empty cache directory (FERRETDB_CACHE_DIR) with a `go` whose `build`
// only writes its output file: every other step (reading go.mod, the module from Go's module cache,
// copying and patching it) is real, but FerretDB is not compiled a second time.
import test from "ava";
import { spawn, spawnSync } from "node:child_process";
import { chmod, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const script = fileURLToPath(new URL("../build-ferretdb.mjs", import.meta.url));
const repoRoot = fileURLToPath(new URL("../../", import.meta.url));

/** The real go binary: `npm test` builds the embedded database first, so Go is there (else this fails). */
function findGo(): string {
  const result = spawnSync("go", ["env", "GOROOT"], { encoding: "utf8" });
  if (result.status !== 0) throw new Error("Go is required (the README's set-up commands build the embedded database)");
  return join(result.stdout.trim(), "bin", "go");
}
const realGo = findGo();

/** Runs the script as `npm run build:db` does (from the repository's root). */
function buildDb(env: NodeJS.ProcessEnv): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script], { cwd: repoRoot, env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.once("error", reject);
    child.once("close", (code) => resolve({ code, stdout, stderr }));
  });
}

test("the first build says what it does and how long it takes; a later one prints nothing", async (t) => {
  const dir = await mkdtemp(join(tmpdir(), "pokerodds-build-db-"));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const cache = join(dir, "cache");
  const builds = join(dir, "builds.log");
  // `go build ... -o <file> .` records its arguments and writes <file>; everything else is real Go.
  const fakeGo = join(dir, "go");
  await writeFile(
    fakeGo,
    `#!/bin/sh
if [ "$1" = build ]; then
  echo "$*" >> '${builds}'
  while [ $# -gt 0 ]; do
    if [ "$1" = -o ]; then echo fake > "$2"; exit 0; fi
    shift
  done
  exit 1
fi
exec '${realGo}' "$@"
`,
  );
  await chmod(fakeGo, 0o755);
  const env: NodeJS.ProcessEnv = { ...process.env, PATH: `${dir}:${process.env.PATH}`, FERRETDB_CACHE_DIR: cache };
  delete env.NODE_OPTIONS;

  const first = await buildDb(env);
  t.is(first.code, 0, first.stderr);
  t.log(first.stderr.trim());
  const lines = first.stderr.trim().split("\n");
  t.regex(
    lines[0] ?? "",
    /^build:db: building the embedded database \(FerretDB v1\.\d+\.\d+\) with Go into .*\/cache\/ferretdb — first time only, about a minute…$/,
  );
  t.true(
    lines.some((line) => /^build:db: applied \S+\.patch to github\.com\/FerretDB\/FerretDB@v/.test(line)),
    first.stderr,
  );
  t.regex(lines.at(-1) ?? "", /^build:db: built .*\/cache\/ferretdb in \d+ s; later starts reuse it$/);
  t.is(first.stdout, "");
  t.regex(await readFile(builds, "utf8"), new RegExp(`-o ${join(cache, "ferretdb")} \\.$`, "m"));

  const later = await buildDb(env);
  t.deepEqual(later, { code: 0, stdout: "", stderr: "" }, "nothing to say when the build is cached");
  t.is((await readFile(builds, "utf8")).trim().split("\n").length, 2, "go build ran again (Go's cache makes it fast)");

  // FerretDB's version or a patch changed (the stamp no longer matches): a rebuild, said as such.
  await writeFile(join(cache, "module.stamp"), "stale\n");
  const changed = await buildDb(env);
  t.is(changed.code, 0, changed.stderr);
  t.regex(
    changed.stderr,
    /^build:db: rebuilding the embedded database: FerretDB v1\.\d+\.\d+ or its patches changed — about a minute…$/m,
  );
  t.notRegex(changed.stderr, /first time/);
});
