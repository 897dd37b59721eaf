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

/** Domain errors keep their message; anything else is hidden behind INTERNAL. */
export function toStatusObject(error: unknown): Partial<StatusObject> & { known: boolean } {
  if (error instanceof DomainError) {
    const metadata = new Metadata();
    metadata.set(DOMAIN_ERROR_KEY, "1");
    return { code: STATUS_BY_KIND[error.kind], details: error.message, metadata, known: true };
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
