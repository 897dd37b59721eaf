// The one place where failures of what the table depends on become domain errors (and so gRPC
// statuses): the database and the wallet and odds services.
import { status } from "@grpc/grpc-js";
import {
  DomainError,
  InvalidArgumentError,
  isOutageStatus,
  isServiceError,
  NotFoundError,
  serviceUnavailableMessage,
  UnavailableError,
} from "@pokerodds/common";
import { isDatabaseOutage } from "@pokerodds/common/mongo";

/**
 * A call to `service` that failed for an outage, as the UnavailableError that names it, so that the
 * client learns which service is away (the gateway shows a service's own UNAVAILABLE message); any
 * other failure as it is.
 */
export const outageOf =
  (service: "wallet" | "odds") =>
  (error: unknown): never => {
    if (isServiceError(error) && isOutageStatus(error.code)) {
      throw new UnavailableError(serviceUnavailableMessage(service), { cause: error });
    }
    throw error;
  };

/**
 * Domain errors pass through. A database that cannot be reached, or a dependency that is down or too
 * slow, is UNAVAILABLE: the caller retries with the same key and the unfinished steps complete
 * (recovery finishes them otherwise). A wallet's NOT_FOUND (no such player) and INVALID_ARGUMENT keep
 * their message. Anything else stays an internal error, hidden by the gRPC adapter.
 */
export function toDomainError(error: unknown): unknown {
  if (error instanceof DomainError) return error;
  if (isDatabaseOutage(error)) {
    return new UnavailableError("the table database is unavailable");
  }
  if (isServiceError(error)) {
    if (isOutageStatus(error.code)) return new UnavailableError("a service the table depends on is unavailable");
    if (error.code === status.NOT_FOUND) return new NotFoundError(error.details);
    if (error.code === status.INVALID_ARGUMENT) return new InvalidArgumentError(error.details);
  }
  return error;
}
