import { InvalidArgumentError } from "@pokerodds/common";

// eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
const CONTROL = /[\u0000-\u001f\u007f]/;

/** A caller-supplied string that the ledger records: bounded, and free of control characters. */
export function requireText(
  name: string,
  value: string,
  { required, maxLength }: { required: boolean; maxLength: number },
): string {
  if (required && value.trim() === "") throw new InvalidArgumentError(`${name} is required`);
  if (value.length > maxLength) throw new InvalidArgumentError(`${name} must be at most ${maxLength} characters`);
  if (CONTROL.test(value)) throw new InvalidArgumentError(`${name} must not contain control characters`);
  return value;
}
