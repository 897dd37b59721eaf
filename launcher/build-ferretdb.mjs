// Builds the embedded database (launcher/ferretdb) into .cache/ferretdb/ferretdb, from FerretDB's
// module with the patches in launcher/ferretdb/patches applied (see launcher/ferretdb/README.md).
// The module is copied to .cache/ferretdb/module and patched there only when FerretDB's version or
// a patch changed (module.stamp); the build uses a generated go.patched.mod that replaces FerretDB
// with that copy, so the committed go.mod stays as it is. Go's build cache makes a rebuild with
// nothing changed take a fraction of a second. Without Go, an existing binary or an external
// MONGODB_URI will do. The first build (no binary yet) takes about a minute and says so; a later run
// with nothing to do prints nothing. FERRETDB_CACHE_DIR builds elsewhere than .cache/ferretdb: for
// tests of this script only, as the launcher always runs .cache/ferretdb/ferretdb.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
  chmodSync,
  copyFileSync,
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const ferretdbModule = "github.com/FerretDB/FerretDB";
const source = fileURLToPath(new URL("./ferretdb/", import.meta.url));
const patchesDir = join(source, "patches");
const cacheDir = process.env.FERRETDB_CACHE_DIR
  ? resolve(process.env.FERRETDB_CACHE_DIR)
  : fileURLToPath(new URL("../.cache/ferretdb/", import.meta.url));
const output = join(cacheDir, "ferretdb");
const moduleCopy = join(cacheDir, "module");
const stampFile = join(cacheDir, "module.stamp");
const patchedModfile = join(cacheDir, "go.patched.mod");

const hasGo = spawnSync("go", ["version"], { stdio: "ignore" }).error === undefined;
if (!hasGo) {
  if (existsSync(output)) {
    console.error(`build:db: go not found; using the existing ${output}`);
    process.exit(0);
  }
  if (process.env.MONGODB_URI) {
    console.error("build:db: go not found; skipped, MONGODB_URI is set so no embedded database is needed");
    process.exit(0);
  }
  console.error(
    "build:db: the embedded database (FerretDB) is built with Go >= 1.22, and `go` was not found on PATH.\n" +
      "Install Go (https://go.dev/dl/), or set MONGODB_URI to use an existing MongoDB instead.",
  );
  process.exit(1);
}

function fail(message) {
  console.error(`build:db: ${message}`);
  process.exit(1);
}

/** Runs a command to completion and returns its stdout; fails the build if it does not succeed. */
function run(command, args, options = {}) {
  const result = spawnSync(command, args, { encoding: "utf8", stdio: ["ignore", "pipe", "inherit"], ...options });
  if (result.error || result.status !== 0) {
    const why = result.error ? result.error.message : `exit ${result.status ?? result.signal}`;
    if (result.stdout) console.error(result.stdout.trim());
    fail(`\`${command} ${args.join(" ")}\` in ${options.cwd ?? process.cwd()} failed (${why})`);
  }
  return result.stdout;
}

/** Adds the owner's write bit to everything under `dir` (the module cache's copies are read-only). */
function makeWritable(dir) {
  chmodSync(dir, lstatSync(dir).mode | 0o700);
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) makeWritable(path);
    else if (entry.isFile()) chmodSync(path, lstatSync(path).mode | 0o200);
  }
}

function removeTree(dir) {
  if (!existsSync(dir)) return;
  makeWritable(dir);
  rmSync(dir, { recursive: true, force: true });
}

// FerretDB's version, as the committed go.mod requires it.
const goMod = JSON.parse(run("go", ["mod", "edit", "-json"], { cwd: source }));
const version = goMod.Require?.find((require) => require.Path === ferretdbModule)?.Version;
if (!version) fail(`${join(source, "go.mod")} does not require ${ferretdbModule}`);

const patches = existsSync(patchesDir)
  ? readdirSync(patchesDir)
      .filter((name) => name.endsWith(".patch"))
      .sort()
  : [];
const stampHash = createHash("sha256").update(`${ferretdbModule}@${version}\n`);
for (const name of patches) stampHash.update(`${name}\n`).update(readFileSync(join(patchesDir, name)));
const stamp = stampHash.digest("hex");

mkdirSync(cacheDir, { recursive: true });
const fresh =
  existsSync(join(moduleCopy, "go.mod")) && existsSync(stampFile) && readFileSync(stampFile, "utf8").trim() === stamp;

// Said before the long part, so a first `npm start` that is silent for a minute is not taken for a hang.
const startedAt = Date.now();
const firstBuild = !existsSync(output);
const fromHere = relative(process.cwd(), output);
const shown = fromHere.startsWith("..") ? output : fromHere;
if (firstBuild) {
  console.error(
    `build:db: building the embedded database (FerretDB ${version}) with Go into ${shown} — first time only, about a minute…`,
  );
} else if (!fresh) {
  console.error(
    `build:db: rebuilding the embedded database: FerretDB ${version} or its patches changed — about a minute…`,
  );
}
if (!fresh) {
  // `go mod download` uses the module cache when the module is there, the module proxy otherwise.
  const download = JSON.parse(run("go", ["mod", "download", "-json", `${ferretdbModule}@${version}`], { cwd: source }));
  if (!download.Dir) fail(`go mod download found no directory for ${ferretdbModule}@${version}`);

  const staging = `${moduleCopy}.tmp`;
  removeTree(staging);
  cpSync(download.Dir, staging, { recursive: true });
  makeWritable(staging);

  // .cache is inside this repository's work tree. Inside a repository `git apply` takes the patch's
  // paths relative to the repository's root and silently skips (exit 0) those outside its working
  // directory; GIT_CEILING_DIRECTORIES keeps it from finding the repository, so it patches the copy
  // as a plain directory. The check below that every file the patch names changed guards this too.
  const gitEnv = { ...process.env, GIT_CEILING_DIRECTORIES: resolve(cacheDir) };
  for (const variable of ["GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_PREFIX"]) delete gitEnv[variable];
  const read = (file) => (existsSync(join(staging, file)) ? readFileSync(join(staging, file)) : null);

  for (const name of patches) {
    const patch = join(patchesDir, name);
    const targets = [...readFileSync(patch, "utf8").matchAll(/^\+\+\+ b\/(\S+)/gm)].map((match) => match[1]);
    if (targets.length === 0) fail(`${patch} names no file to patch`);
    const before = targets.map(read);
    run("git", ["apply", "--whitespace=nowarn", patch], { cwd: staging, env: gitEnv });
    targets.forEach((target, i) => {
      const after = read(target);
      if (after === null ? before[i] === null : before[i] !== null && after.equals(before[i])) {
        fail(`git apply left ${target} unchanged: ${patch} was not applied to ${staging}`);
      }
    });
    console.error(`build:db: applied ${name} to ${ferretdbModule}@${version}`);
  }

  removeTree(moduleCopy);
  renameSync(staging, moduleCopy);
  writeFileSync(stampFile, `${stamp}\n`);
}

// go.mod with FerretDB replaced by the patched copy (-modfile wants its go.sum beside it, named to match).
copyFileSync(join(source, "go.mod"), patchedModfile);
copyFileSync(join(source, "go.sum"), patchedModfile.replace(/\.mod$/, ".sum"));
run("go", ["mod", "edit", `-replace=${ferretdbModule}@${version}=${moduleCopy}`, patchedModfile], { cwd: source });

// -buildvcs=false: stamping VCS data needs a usable git checkout, which a source tarball lacks.
const build = spawnSync("go", ["build", "-buildvcs=false", `-modfile=${patchedModfile}`, "-o", output, "."], {
  cwd: source,
  stdio: "inherit",
});
if (build.status !== 0) {
  console.error(`build:db: go build in ${source} failed`);
  process.exit(1);
}
if (firstBuild || !fresh) {
  console.error(`build:db: built ${shown} in ${Math.round((Date.now() - startedAt) / 1000)} s; later starts reuse it`);
}
