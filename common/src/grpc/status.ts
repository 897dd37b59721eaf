import { status, Metadata, type ServiceError, type StatusObject } from "@grpc/grpc-js";
import { DomainError, type ErrorKind } from "../errors.js";

// The one table from domain error to gRPC status. The gateway's table (gRPC status -> HTTP)
// is its mirror; FAILED_PRECONDITION and ALREADY_EXISTS carry decisions.md's 409 and 422.
const STATUS_BY_KIND: Record<ErrorKind, status> = {
  invalid_argument: status.INVALID_ARGUMENT,
  not_found: status.NOT_FOUND,
  forbidden: status.PERMISSION_DENIED,
  conflict: status.FAILED_PRECONDITION,
  idempotency_mismatch: status.ALREADY_EXISTS,
  unavailable: status.UNAVAILABLE,
  busy: status.RESOURCE_EXHAUSTED,
};

/**
 * Trailer metadata of a status made from a domain error: its details are a message written for the
 * client, not library text (a refused connection's address, say), which has the same codes.
 */
export const DOMAIN_ERROR_KEY = "pokerodds-domain-error";

/**
 * A domain error's message as sent, cut at this length. Some quote what the caller sent (a ledger
 * reason they refuse): a status whose details held a 1 MB reason never reached its caller, which
 * waited out its deadline while every other call on its connection waited too, and its log line
 * was as long.
 */
const STATUS_DETAILS_MAX_LENGTH = 1024;

const cutDetails = (message: string): string =>
  message.length <= STATUS_DETAILS_MAX_LENGTH
    ? message
    : `${message.slice(0, STATUS_DETAILS_MAX_LENGTH)}… (${message.length} characters)`;

/** Domain errors keep their message (cut to STATUS_DETAILS_MAX_LENGTH); anything else is hidden behind INTERNAL. */
export function toStatusObject(error: unknown): Partial<StatusObject> & { known: boolean } {
  if (error instanceof DomainError) {
    const metadata = new Metadata();
    metadata.set(DOMAIN_ERROR_KEY, "1");
    return { code: STATUS_BY_KIND[error.kind], details: cutDetails(error.message), metadata, known: true };
  }
  return { code: status.INTERNAL, details: "internal error", metadata: new Metadata(), known: false };
}

/** Whether a failed call's status was made from a domain error (its details written for the client). */
export const madeFromDomainError = (error: ServiceError): boolean =>
  error.metadata?.get(DOMAIN_ERROR_KEY).includes("1") ?? false;

/** A failed call's error as grpc-js reports it: an Error carrying the status `code` and `details`. */
export function isServiceError(error: unknown): error is ServiceError {
  return (
    error instanceof Error &&
    typeof (error as Partial<ServiceError>).code === "number" &&
    typeof (error as Partial<ServiceError>).details === "string"
  );
}

const OUTAGE_STATUSES = new Set<number>([
  status.UNAVAILABLE,
  status.DEADLINE_EXCEEDED,
  status.CANCELLED,
  status.RESOURCE_EXHAUSTED,
]);

/**
 * Whether a failed call's status says that the service could not be had, not that it refused:
 * grpc-js reports a refused connection as UNAVAILABLE, and an expired deadline, a call its connection
 * cut (CANCELLED) or HTTP/2's own limits (RESOURCE_EXHAUSTED) are the same to the caller. Its outcome
 * is unknown; a retry under the same idempotency key learns it.
 */
export const isOutageStatus = (code: number): boolean => OUTAGE_STATUSES.has(code);
