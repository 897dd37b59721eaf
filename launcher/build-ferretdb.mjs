// Builds the embedded database (launcher/ferretdb) into .cache/ferretdb/ferretdb.
// Go's build cache makes a rebuild with nothing changed take a fraction of a second, so no
// freshness check of our own. Without Go, an existing binary or an external MONGODB_URI will do.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

const source = fileURLToPath(new URL("./ferretdb/", import.meta.url));
const output = fileURLToPath(new URL("../.cache/ferretdb/ferretdb", import.meta.url));

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

// -buildvcs=false: stamping VCS data needs a usable git checkout, which a source tarball lacks.
const build = spawnSync("go", ["build", "-buildvcs=false", "-o", output, "."], { cwd: source, stdio: "inherit" });
if (build.status !== 0) {
  console.error(`build:db: go build in ${source} failed`);
  process.exit(1);
}
