import { InvalidArgumentError } from "@pokerodds/common";
import { hasControlCharacters } from "@pokerodds/common/limits";

/** A caller-supplied string that the ledger records: bounded, and free of control characters. */
export function requireText(
  name: string,
  value: string,
  { required, maxLength }: { required: boolean; maxLength: number },
): string {
  if (required && value.trim() === "") throw new InvalidArgumentError(`${name} is required`);
  if (value.length > maxLength) throw new InvalidArgumentError(`${name} must be at most ${maxLength} characters`);
  if (hasControlCharacters(value)) throw new InvalidArgumentError(`${name} must not contain control characters`);
  return value;
}
