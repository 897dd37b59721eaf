import { playerIdProblem } from "@pokerodds/common/limits";
import { badRequest, forbidden } from "../http/http-error.js";
import type { Identity } from "./identity.js";

/**
 * The player a request acts for or reads: the one it names, which must be the caller unless the
 * caller is an ADMIN (else 403), or the caller when it names none.
 */
export function actingPlayerId(identity: Identity, named: string | undefined): string {
  if (named === undefined || named === identity.playerId) return identity.playerId;
  if (identity.role === "ADMIN") {
    const problem = playerIdProblem(named);
    if (problem) throw badRequest(problem);
    return named;
  }
  throw forbidden("playerId must be the token's subject unless the caller is an ADMIN");
}
