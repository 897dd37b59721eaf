// A reply a backend sent that the contract does not allow (an unspecified enum, a negative balance, a
// short board) is a bug there: it becomes a 500 rather than reach a client.
export class ContractViolation extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ContractViolation";
  }
}

/** `value` when it is one of `names`, else a violation naming `what`. */
export function oneOf<const T extends readonly string[]>(names: T, value: string, what: string): T[number] {
  if (!names.includes(value)) throw new ContractViolation(`${what} ${JSON.stringify(value)}`);
  return value as T[number];
}
