// One hand's odds panel at one stage: what the odds service prices and the table service stores,
// shows and pays bets at. Both domains share this type, and this file holds the one mapping between
// it and the wire (the odds contract's HandOdds, whose status is the proto enum HandStatus).
//
// The domains keep status strings rather than the proto's enum numbers: the table stores its
// panels inside its snapshots (the strings are in the database), and a domain value can never be
// HAND_STATUS_UNSPECIFIED.
import { HandStatus as ProtoHandStatus, type HandOdds as ProtoHandOdds } from "./generated/pokerodds/odds/v1/odds.js";

/** The public API's betting stage values: -1 NON_BETTING (setup, start, river), 0 HOLE, 1 FLOP, 2 TURN. */
export type BettingStage = -1 | 0 | 1 | 2;

/** A hand's status, as the public API names it too (its schema lists these). */
export const HAND_STATUSES = [
  "IN_PLAY_FAVOURITE",
  "IN_PLAY_BETTING_STAGE_ACTIVE",
  "DEAD_CANNOT_WIN",
  "WINNER",
  "LOSER",
] as const;

export type HandStatus = (typeof HAND_STATUSES)[number];

export interface HandOdds {
  readonly handIndex: number;
  readonly bettingStage: BettingStage;
  readonly handStatus: HandStatus;
  /** Equity in percent (0..100): the chance that this hand alone is best. */
  readonly winPercentage: number;
  /** Equity in percent (0..100): the chance that this hand ties for best. */
  readonly drawPercentage: number;
  /** Displayed decimal odds in integer tenths (23 means 2.3); 0 when the hand cannot win outright. */
  readonly oddsTenths: number;
}

const TO_PROTO: Record<HandStatus, ProtoHandStatus> = {
  IN_PLAY_FAVOURITE: ProtoHandStatus.HAND_STATUS_IN_PLAY_FAVOURITE,
  IN_PLAY_BETTING_STAGE_ACTIVE: ProtoHandStatus.HAND_STATUS_IN_PLAY_BETTING_STAGE_ACTIVE,
  DEAD_CANNOT_WIN: ProtoHandStatus.HAND_STATUS_DEAD_CANNOT_WIN,
  WINNER: ProtoHandStatus.HAND_STATUS_WINNER,
  LOSER: ProtoHandStatus.HAND_STATUS_LOSER,
};

const FROM_PROTO = new Map<ProtoHandStatus, HandStatus>(
  Object.entries(TO_PROTO).map(([name, value]) => [value, name as HandStatus]),
);

/** A status from the wire in domain terms; undefined for an unknown or unspecified one. */
export const handStatusFromProto = (status: ProtoHandStatus): HandStatus | undefined => FROM_PROTO.get(status);

// A field-by-field copy, like every proto mapping (e.g. tableStateToProto): alike in shape by nature.
export function handOddsToProto(odds: HandOdds): ProtoHandOdds {
  return {
    handIndex: odds.handIndex,
    bettingStage: odds.bettingStage,
    handStatus: TO_PROTO[odds.handStatus],
    winPercentage: odds.winPercentage,
    drawPercentage: odds.drawPercentage,
    oddsTenths: odds.oddsTenths,
  };
}

/**
 * A panel from the wire in domain terms. An unknown or unspecified status is refused (RangeError);
 * the betting stage is taken as sent, for the receiving domain to check with the other fields.
 */
export function handOddsFromProto(odds: ProtoHandOdds): HandOdds {
  const handStatus = handStatusFromProto(odds.handStatus);
  if (!handStatus) throw new RangeError(`the odds service sent hand status ${odds.handStatus}`);
  return {
    handIndex: odds.handIndex,
    bettingStage: odds.bettingStage as BettingStage,
    handStatus,
    winPercentage: odds.winPercentage,
    drawPercentage: odds.drawPercentage,
    oddsTenths: odds.oddsTenths,
  };
}
