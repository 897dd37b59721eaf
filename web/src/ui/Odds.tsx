import type { HandOdds } from "../api/client";
import { stageName, statusLabel } from "../model/stages";

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

export const percent = (value: number): string => `${value.toFixed(1)}%`;

/** Decimal odds as displayed and recorded: one decimal; a dead hand shows none. */
export const oddsText = (odds: number): string => (odds > 0 ? odds.toFixed(1) : "—");

/** Win, draw, odds and status cells of one panel. */
export function OddsCells({ panel }: { panel: HandOdds }) {
  return (
    <>
      <td class="num">{percent(panel.winPercentage)}</td>
      <td class="num">{percent(panel.drawPercentage)}</td>
      <td class="num">{oddsText(panel.odds)}</td>
      <td>
        <StatusBadge status={panel.handStatus} />
      </td>
    </>
  );
}

export function OddsRow({ panel }: { panel: HandOdds }) {
  return (
    <tr data-stage={panel.bettingStage}>
      <th scope="row">{stageName(panel.bettingStage)}</th>
      <OddsCells panel={panel} />
    </tr>
  );
}
