// A provably fair game's server seed (docs/provably-fair.md): drawn by the odds service for a deal
// or a bulk game, and by the table service when a table game begins, so it is defined once here.
import { createHash, randomBytes } from "node:crypto";

/** A server seed is 32 bytes (256 bits), written as 64 hexadecimal digits (SEED_HEX in limits.ts). */
const SEED_BYTES = 32;

/** A fresh server seed from the operating system's CSPRNG: 64 lowercase hex digits. */
export function newServerSeed(): string {
  return randomBytes(SEED_BYTES).toString("hex");
}

/** The commitment to a seed: SHA-256 of its 32 bytes (not of its hex text), 64 lowercase hex digits. */
export function commitmentOf(seedHex: string): string {
  return createHash("sha256").update(Buffer.from(seedHex, "hex")).digest("hex");
}
