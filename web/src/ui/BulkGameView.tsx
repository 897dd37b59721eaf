import { useState } from "preact/hooks";
import type { BulkGame, BulkHandStage } from "../api/client";
import { cardList, holeCards } from "../model/cards";
import { Cards } from "./Card";
import { oddsText, percent } from "./Odds";

const STAGES = ["Hole", "Flop", "Turn", "River"];

/** The board as it stands at a stage: nothing at the hole, 3 cards at the flop, then 4, then 5. */
function boardAt(game: BulkGame, stage: number): (string | null)[] {
  const cards = [game.bc1, game.bc2, game.bc3, game.bc4, game.bc5];
  const shown = [0, 3, 4, 5][stage] ?? 0;
  return cards.map((card, i) => (i < shown ? card : null));
}

function flags(info: BulkHandStage): string[] {
  const out: string[] = [];
  if (info.statusIsWinner) out.push("Winner");
  if (info.statusIsFavourite) out.push("Favourite");
  if (info.statusCantLose) out.push("Can't lose");
  if (info.statusBestRtp) out.push("Best value");
  return out;
}

export function BulkGameView({ game }: { game: BulkGame }) {
  const [stage, setStage] = useState(0);
  const n = game.numberOfHands;
  // Ordered by stage, then hand: the stage's entries are one slice.
  const entries = game.handStageInfoList.slice(stage * n, stage * n + n);
  return (
    <div data-testid="bulk-game">
      <div class="controls" role="group" aria-label="Stage">
        {STAGES.map((name, i) => (
          <button key={name} type="button" aria-pressed={i === stage} onClick={() => setStage(i)}>
            {name}
          </button>
        ))}
      </div>
      <h3 data-testid="bulk-stage">{STAGES[stage]}</h3>
      <p>
        Board: <Cards codes={boardAt(game, stage)} label={`Board at the ${STAGES[stage]?.toLowerCase()}`} />
      </p>
      <div class="scroll">
        <table>
          <thead>
            <tr>
              <th scope="col">Hand</th>
              <th scope="col">Cards</th>
              <th scope="col" class="num">
                Win
              </th>
              <th scope="col" class="num">
                Draw
              </th>
              <th scope="col" class="num">
                Odds
              </th>
              <th scope="col">Status</th>
              <th scope="col">Best five</th>
            </tr>
          </thead>
          <tbody>
            {entries.map((info) => (
              <tr key={info.handIndex}>
                <th scope="row">{info.handIndex + 1}</th>
                <td>
                  <Cards codes={holeCards(game.hands[info.handIndex] ?? "")} label={`Hand ${info.handIndex + 1}`} />
                </td>
                <td class="num">{percent(info.percentWin)}</td>
                <td class="num">{percent(info.percentDraw)}</td>
                <td class="num">{oddsText(info.oddsRounded)}</td>
                <td>{flags(info).join(", ") || "—"}</td>
                <td>
                  {info.bestFiveCards ? (
                    <>
                      <Cards codes={cardList(info.bestFiveCards)} label={`Hand ${info.handIndex + 1} best five`} />{" "}
                      {info.handDescShort}
                    </>
                  ) : (
                    "—"
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
