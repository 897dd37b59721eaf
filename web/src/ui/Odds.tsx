import type { ComponentChildren } from "preact";
import type { HandOdds } from "../api/client";
import { isBettingStage, stageName, statusLabel } from "../model/stages";

const BADGE_CLASS: Record<HandOdds["handStatus"], string> = {
  IN_PLAY_FAVOURITE: "badge badge--favourite",
  IN_PLAY_BETTING_STAGE_ACTIVE: "badge",
  DEAD_CANNOT_WIN: "badge badge--dead",
  WINNER: "badge badge--winner",
  LOSER: "badge badge--loser",
};

export function StatusBadge({ status }: { status: HandOdds["handStatus"] }) {
  return (
    <span class={BADGE_CLASS[status]} data-status={status}>
      {statusLabel(status)}
    </span>
  );
}

const percent = (value: number): string => `${value.toFixed(1)}%`;

/** Decimal odds as displayed and recorded: one decimal; a dead hand shows none. */
export const oddsText = (odds: number): string => (odds > 0 ? odds.toFixed(1) : "—");

/** The headings over OddsCells, in the same order. */
export function OddsHeadings() {
  return (
    <>
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
    </>
  );
}

interface OddsFigures {
  /** Chance of winning outright, in percent. */
  win: number;
  /** Chance of a dead heat, in percent. */
  draw: number;
  odds: number;
  status: ComponentChildren;
}

/** Win, draw, odds and status cells of one hand, however the figures were priced. */
export function OddsCells({ win, draw, odds, status }: OddsFigures) {
  return (
    <>
      <td class="num">{percent(win)}</td>
      <td class="num">{percent(draw)}</td>
      <td class="num">{oddsText(odds)}</td>
      <td>{status}</td>
    </>
  );
}

/** The odds cells of one panel, its status as a badge. */
export function PanelCells({ panel }: { panel: HandOdds }) {
  return (
    <OddsCells
      win={panel.winPercentage}
      draw={panel.drawPercentage}
      odds={panel.odds}
      status={<StatusBadge status={panel.handStatus} />}
    />
  );
}

/** One stage's row of a table's hand; the river's shows no odds, since betting is closed there. */
export function OddsRow({ panel }: { panel: HandOdds }) {
  return (
    <tr data-stage={panel.bettingStage}>
      <th scope="row">{stageName(panel.bettingStage)}</th>
      <PanelCells panel={isBettingStage(panel.bettingStage) ? panel : { ...panel, odds: 0 }} />
    </tr>
  );
}
