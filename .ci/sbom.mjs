// The CycloneDX SBOM of the repository's installed dependency tree, CI's artifact:
//
//   node .ci/sbom.mjs artifacts/sbom.cdx.json
//
// Every workspace and every package in node_modules, dev tools included (those carry the property
// cdx:npm:package:development=true; the images hold only the others). @cyclonedx/cyclonedx-npm
// writes it; it is pinned and installed on its own from .ci/sbom/package-lock.json (`npm ci
// --prefix .ci/sbom --omit=optional`), so it never enters the project's tree. This script then
// gives each package the SHA-512 that npm ci checked it against (the lock file's "integrity"):
// cyclonedx-npm takes hashes only along with a "resolved" URL, which the lock file does not record
// where npm runs with omit-lockfile-registry-resolved, as here. Last, the result is validated
// against the CycloneDX 1.6 JSON schema.
import { Buffer } from "node:buffer";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const output = process.argv[2];
if (!output) {
  console.error("usage: node .ci/sbom.mjs <output.cdx.json>");
  process.exit(2);
}
const root = fileURLToPath(new URL("..", import.meta.url));
const toolDir = fileURLToPath(new URL("./sbom/", import.meta.url));
const require = createRequire(join(toolDir, "package.json"));
const { Spec, Validation } = require("@cyclonedx/cyclonedx-library");

const scratch = mkdtempSync(join(tmpdir(), "sbom-"));
const raw = join(scratch, "bom.json");
const generated = spawnSync(
  join(toolDir, "node_modules/.bin/cyclonedx-npm"),
  ["--spec-version", "1.6", "--output-format", "JSON", "--output-reproducible", "--validate", "--output-file", raw],
  { cwd: root, stdio: ["ignore", "inherit", "inherit"] },
);
if (generated.status !== 0) {
  console.error(`cyclonedx-npm exited ${generated.status ?? generated.signal}`);
  process.exit(1);
}
const bom = JSON.parse(readFileSync(raw, "utf8"));
rmSync(scratch, { recursive: true, force: true });

const lock = JSON.parse(readFileSync(join(root, "package-lock.json"), "utf8"));
const ALGORITHMS = { sha1: "SHA-1", sha256: "SHA-256", sha384: "SHA-384", sha512: "SHA-512" };
const counts = { components: 0, development: 0, hashed: 0 };

/** The lock file's integrity ("sha512-<base64> ...") as CycloneDX hashes. */
function hashesOf(integrity) {
  return integrity
    .split(/\s+/)
    .map((entry) => entry.match(/^(sha1|sha256|sha384|sha512)-(.+)$/))
    .filter((match) => match !== null)
    .map(([, alg, base64]) => ({ alg: ALGORITHMS[alg], content: Buffer.from(base64, "base64").toString("hex") }));
}

function visit(components) {
  for (const component of components ?? []) {
    counts.components++;
    const property = (name) => component.properties?.find((p) => p.name === name)?.value;
    if (property("cdx:npm:package:development") === "true") counts.development++;
    const integrity = lock.packages?.[property("cdx:npm:package:path") ?? ""]?.integrity;
    if (!component.hashes?.length && typeof integrity === "string") {
      const hashes = hashesOf(integrity);
      if (hashes.length > 0) component.hashes = hashes;
    }
    if (component.hashes?.length) counts.hashed++;
    visit(component.components);
  }
}
visit(bom.components);

const text = JSON.stringify(bom, null, 2) + "\n";
const errors = await new Validation.JsonStrictValidator(Spec.Version.v1dot6).validate(text);
if (errors !== null) {
  console.error("the SBOM does not validate against CycloneDX 1.6:", JSON.stringify(errors, null, 2));
  process.exit(1);
}
writeFileSync(output, text);
console.log(
  `${output}: CycloneDX ${bom.specVersion}, ${counts.components} components ` +
    `(${counts.development} development only), ${counts.hashed} with the hash npm ci verified; schema-valid`,
);
