import type { HandOdds, Seat, TableState } from "../../api/client";
import { holeCards } from "../../model/cards";
import { formatCents } from "../../model/money";
import { openStake, stakeHint } from "../../model/settlement";
import { bettingAt, currentOdds, noBetReason, stageName } from "../../model/stages";
import { useRef } from "preact/hooks";
import { AmountForm, type FieldMemory } from "../AmountForm";
import { Cards } from "../Card";
import { Notice } from "../Notice";
import { OddsHeadings, OddsRow, StatusBadge } from "../Odds";
import { ScrollBox } from "../ScrollBox";
import type { useAction } from "../use-action";
import type { TableMoves } from "./moves";

interface Props {
  state: TableState;
  playerId: string;
  seat: Seat | undefined;
  moves: TableMoves;
  action: ReturnType<typeof useAction>;
}

export function HandsView({ state, playerId, seat, moves, action }: Props) {
  // Each hand's stake field while its form is gone: betting closes for each reveal, and the player's
  // stake (and focus) must survive it, not come back as 10.
  const stakeFields = useRef(new Map<number, FieldMemory>()).current;
  if (!state.hands) {
    return (
      <section aria-labelledby="hands-title" class="panel">
        <h2 id="hands-title">Hands</h2>
        <p>No hands are dealt yet: deal the hole cards to start a game.</p>
      </section>
    );
  }
  const at = bettingAt(state);
  return (
    <section aria-labelledby="hands-title" class="panel">
      <h2 id="hands-title">Hands{at ? ` — betting open at the ${stageName(at.bettingStage).toLowerCase()}` : ""}</h2>
      {state.targetRtp === null ? null : (
        <p class="hint" data-testid="target-rtp">
          Odds priced at a {Math.round(state.targetRtp * 1000) / 10} % return to player, fixed for this game at its
          deal.
        </p>
      )}
      {state.targetRtp === null ? null : (
        // Else the odds cannot be worked out from the percentages shown: a hand's draws count too.
        <p class="hint" data-testid="tie-share">
          A hand's odds count its ties as a share of a win: a dead heat of two pays half the odds.
        </p>
      )}
      <div class="hands">
        {state.hands.map((hand, handIndex) => (
          <HandView
            key={handIndex}
            {...{ state, playerId, seat, moves, action, hand, handIndex }}
            stakeField={stakeFieldOf(stakeFields, handIndex)}
          />
        ))}
      </div>
    </section>
  );
}

function stakeFieldOf(fields: Map<number, FieldMemory>, handIndex: number): FieldMemory {
  let field = fields.get(handIndex);
  if (!field) fields.set(handIndex, (field = {}));
  return field;
}

/** A bet's message shows under its hand, where the player acted, not over the page. */
const betPlace = (handIndex: number): string => `hand-${handIndex}`;

function HandView({
  state,
  playerId,
  seat,
  moves,
  action,
  hand,
  handIndex,
  stakeField,
}: Props & { hand: string; handIndex: number; stakeField: FieldMemory }) {
  const odds = currentOdds(state, handIndex);
  const at = bettingAt(state);
  const place = betPlace(handIndex);
  const reason = at !== undefined && odds !== undefined ? noBetReason(odds) : null;
  const canBet = at !== undefined && seat !== undefined && odds !== undefined && reason === null;
  return (
    <article class="hand" aria-labelledby={`hand-${handIndex}-title`} data-testid={`hand-${handIndex}`}>
      <h3 id={`hand-${handIndex}-title`}>
        Hand {handIndex + 1} {odds ? <StatusBadge status={odds.handStatus} /> : null}
      </h3>
      <Cards codes={holeCards(hand)} label={`Hand ${handIndex + 1} hole cards`} />
      <HandPanels panels={state.handOdds.filter((o) => o.handIndex === handIndex)} handIndex={handIndex} />
      <MyStake state={state} playerId={playerId} handIndex={handIndex} />
      {canBet ? (
        <AmountForm
          label={`Stake on hand ${handIndex + 1}`}
          button={`Bet at ${odds.odds.toFixed(1)}`}
          initial="10"
          memory={stakeField}
          busy={action.busy}
          onAmount={(amount) =>
            void action.run(
              () =>
                moves.bet({ seatIndex: seat.seatId, handIndex, betAmount: amount, shown: { ...at, odds: odds.odds } }),
              { place },
            )
          }
          {...action.amountField(place)}
          hint={(stake) => stakeHint(stake, odds, seat.seatBalance)}
          testId={`bet-${handIndex}`}
        />
      ) : reason ? (
        <p class="hint" data-testid={`no-bet-${handIndex}`}>
          {reason}
        </p>
      ) : null}
      <Notice message={action.message} place={place} onDismiss={() => action.setMessage(null)} />
    </article>
  );
}

/** The player's own open stake on the hand, and what it returns: "alone", since a dead heat pays a share. */
function MyStake({ state, playerId, handIndex }: { state: TableState; playerId: string; handIndex: number }) {
  const stake = openStake(state, playerId, handIndex);
  if (!stake) return null;
  return (
    <p data-testid="my-stake">
      Your stake: <strong>{formatCents(stake.staked)}</strong>. Returns <strong>{formatCents(stake.returns)}</strong> if
      it wins alone.
    </p>
  );
}

/** The hand's odds at every stage so far, the latest last. */
function HandPanels({ panels, handIndex }: { panels: HandOdds[]; handIndex: number }) {
  if (panels.length === 0) return null;
  return (
    <ScrollBox label={`Hand ${handIndex + 1} odds table`}>
      <table class="odds">
        <thead>
          <tr>
            <th scope="col">Stage</th>
            <OddsHeadings />
          </tr>
        </thead>
        <tbody>
          {panels.map((panel) => (
            <OddsRow key={panel.bettingStage} panel={panel} />
          ))}
        </tbody>
      </table>
    </ScrollBox>
  );
}
