// Translation between the wire (ts-proto messages) and the domain, in both directions.
import { InvalidArgumentError } from "@pokerodds/common";
import type {
  BulkGame as ProtoBulkGame,
  DealResponse,
  EquityRequest,
  EquityResponse,
} from "@pokerodds/common/generated/pokerodds/odds/v1/odds";
import { handOddsToProto } from "@pokerodds/common/hand-odds";
import type { CommittedBulkGame } from "./domain/bulk.js";
import { parseCard, parseHand, type Card } from "@pokerodds/common/poker/cards";
import type { CommittedDealResult } from "./domain/deal.js";
import type { HandOdds } from "@pokerodds/common/poker/pricing";

export function dealToProto(result: CommittedDealResult): DealResponse {
  return {
    hands: result.hands,
    handOdds: result.handOdds.map(handOddsToProto),
    remainingDeck: result.remainingDeck,
    gameId: result.gameId,
    serverSeed: result.serverSeed,
    seedCommitment: result.seedCommitment,
  };
}

/** The domain's absent descriptions (null) are the message's unset optional fields. */
export function bulkGameToProto(game: CommittedBulkGame): ProtoBulkGame {
  return {
    ...game,
    handStageInfoList: game.handStageInfoList.map((info) => ({
      ...info,
      bestFiveCards: info.bestFiveCards ?? undefined,
      handDescShort: info.handDescShort ?? undefined,
      handDescLong: info.handDescLong ?? undefined,
    })),
  };
}

/** The hands and board to price; INVALID_ARGUMENT for no hands or a malformed card. */
export function equityCardsFromProto(request: EquityRequest): { hands: Card[][]; board: Card[] } {
  if (request.hands.length === 0) throw new InvalidArgumentError("hands are required");
  return { hands: request.hands.map(parseHand), board: request.board.map(parseCard) };
}

export function equityToProto(handOdds: readonly HandOdds[]): EquityResponse {
  return { handOdds: handOdds.map(handOddsToProto) };
}
