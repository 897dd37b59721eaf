import { useState } from "preact/hooks";
import type { BulkGame, BulkHandStage } from "../api/client";
import { cardList } from "../model/cards";
import { Cards } from "./Card";
import { HandCells, HandHeadings } from "./HandCells";
import { OddsCells, OddsHeadings } from "./Odds";
import { ScrollBox } from "./ScrollBox";

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
  const stageName = STAGES[stage]?.toLowerCase();
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
        Board: <Cards codes={boardAt(game, stage)} label={`Board at the ${stageName}`} />
      </p>
      <ScrollBox label={`Odds at the ${stageName} table`}>
        <table>
          <thead>
            <tr>
              <HandHeadings />
              <OddsHeadings />
              <th scope="col">Best five</th>
            </tr>
          </thead>
          <tbody>
            {entries.map((info) => (
              <tr key={info.handIndex}>
                <HandCells handIndex={info.handIndex} hand={game.hands[info.handIndex] ?? ""} />
                <OddsCells
                  win={info.percentWin}
                  draw={info.percentDraw}
                  odds={info.oddsRounded}
                  status={flags(info).join(", ") || "—"}
                />
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
      </ScrollBox>
    </div>
  );
}
