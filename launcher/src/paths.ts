import { fileURLToPath } from "node:url";

// Compiled to launcher/dist/paths.js: the repository root is two levels up.
const root = new URL("../../", import.meta.url);

export function repoPath(relative: string): string {
  return fileURLToPath(new URL(relative, root));
}
