// Typed domain errors. Services throw these; the gRPC adapter maps each class to one status and
// the gateway maps that status to one HTTP answer, so every error is translated exactly once.

export abstract class DomainError extends Error {
  abstract readonly kind: ErrorKind;
  /** `options.cause`: what failed underneath, for the log (the message is the client's). */
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = new.target.name;
  }
}

export type ErrorKind =
  "invalid_argument" | "not_found" | "forbidden" | "conflict" | "idempotency_mismatch" | "unavailable" | "busy";

// One class per kind, alike by design: the kind is what the adapters map to a status.

/** The request itself is malformed (400). */
export class InvalidArgumentError extends DomainError {
  readonly kind = "invalid_argument";
}

/** The thing named does not exist (404). */
export class NotFoundError extends DomainError {
  readonly kind = "not_found";
}

/** The caller may not do this (403). */
export class ForbiddenError extends DomainError {
  readonly kind = "forbidden";
}

/** Not allowed in the current state (409). */
export class ConflictError extends DomainError {
  readonly kind = "conflict";
}

/**
 * An idempotency key was reused with a different request (422). The client's message names its own
 * key's reuse, never an id made from it.
 */
export class IdempotencyMismatchError extends DomainError {
  readonly kind = "idempotency_mismatch";
  constructor(message = "this idempotency key was used for a different request") {
    super(message);
  }
}

/**
 * What a client is told when `service` (e.g. "wallet") cannot be reached or does not answer in time:
 * the same words whether the gateway found it out or a service it called did.
 */
export const serviceUnavailableMessage = (service: string): string => `${service} service unavailable`;

/** A dependency (database, another service) cannot be reached (503). */
export class UnavailableError extends DomainError {
  readonly kind = "unavailable";
}

/** Too much work is waiting already: try again shortly (429 with Retry-After). */
export class BusyError extends DomainError {
  readonly kind = "busy";
}

const ERROR_BY_KIND: Record<ErrorKind, new (message: string) => DomainError> = {
  invalid_argument: InvalidArgumentError,
  not_found: NotFoundError,
  forbidden: ForbiddenError,
  conflict: ConflictError,
  idempotency_mismatch: IdempotencyMismatchError,
  unavailable: UnavailableError,
  busy: BusyError,
};

/** Rebuilds a domain error that crossed a thread or process boundary as plain data. */
export function domainErrorOf(kind: ErrorKind, message: string): DomainError {
  return new ERROR_BY_KIND[kind](message);
}
