// The Python the tests use (README: "for `npm test` also Python 3.13, found on PATH or in pyenv"):
// schemathesis needs 3.13 (it crashed inside Hypothesis on this machine's 3.11), and the test that
// holds SQLite's lock uses the same one rather than whatever `python3` is, so one requirement serves
// both. Not found: an error that says where it looked, never a skip.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { homedir } from "node:os";
import { delimiter, join } from "node:path";

const PYTHON_VERSION = "3.13";
/** An interpreter named here is tried first. */
const OVERRIDE = "TEST_PYTHON";

/** The interpreter's "major.minor", or undefined when it does not run. */
export function versionOf(python: string): string | undefined {
  const probe = spawnSync(python, ["-c", "import sys; print('%d.%d' % sys.version_info[:2])"], {
    encoding: "utf8",
    timeout: 20_000,
  });
  return probe.status === 0 ? probe.stdout.trim() : undefined;
}

function pyenvRoots(): string[] {
  const roots = [process.env.PYENV_ROOT, join(homedir(), ".pyenv")];
  const asked = spawnSync("pyenv", ["root"], { encoding: "utf8", timeout: 10_000 });
  if (asked.status === 0) roots.push(asked.stdout.trim());
  return [...new Set(roots.filter((root): root is string => Boolean(root)))];
}

/** Every place a Python 3.13 may be, most explicit first. */
function pythonCandidates(): string[] {
  const found: string[] = [];
  if (process.env[OVERRIDE]) found.push(process.env[OVERRIDE]);
  for (const dir of (process.env.PATH ?? "").split(delimiter).filter(Boolean)) {
    found.push(join(dir, `python${PYTHON_VERSION}`));
  }
  for (const root of pyenvRoots()) {
    const versions = join(root, "versions");
    if (!existsSync(versions)) continue;
    for (const version of readdirSync(versions)
      .filter((name) => name.startsWith(`${PYTHON_VERSION}.`))
      .sort()) {
      found.push(join(versions, version, "bin", `python${PYTHON_VERSION}`));
    }
  }
  found.push(`/usr/local/bin/python${PYTHON_VERSION}`, `/usr/bin/python${PYTHON_VERSION}`);
  return [...new Set(found)];
}

/** A Python 3.13 interpreter for `what`, or an error that says where it looked and what to do. */
export function findPython(what: string): string {
  const tried = pythonCandidates();
  for (const candidate of tried) {
    if (existsSync(candidate) && versionOf(candidate) === PYTHON_VERSION) return candidate;
  }
  throw new Error(
    `${what} needs Python ${PYTHON_VERSION}, and none was found. Looked for: ${tried.join(", ")}.\n` +
      `Install it (e.g. \`pyenv install ${PYTHON_VERSION}\`) or set ${OVERRIDE} to its interpreter.`,
  );
}
