// The command-line tools' options, read once each: node:util's parseArgs lets the last of a repeated
// option win, so `--key a ... --key b` would move money under a key the operator may not have meant,
// and `--rtp 0.97 ... --rtp 0.5` would report on a game other than the one asked for.
import { parseArgs, type ParseArgsConfig } from "node:util";

/** parseArgs, but an option given twice is an error (thrown as parseArgs throws its own). */
export function parseArgsOnce<T extends ParseArgsConfig>(config: T): ReturnType<typeof parseArgs<T>> {
  const { tokens = [] } = parseArgs({ ...config, tokens: true });
  const seen = new Set<string>();
  for (const token of tokens) {
    if (token.kind !== "option") continue;
    if (seen.has(token.name)) throw new TypeError(`--${token.name} was given more than once`);
    seen.add(token.name);
  }
  return parseArgs(config);
}
