// The times half of a game record's check: each betting stage the game reached took bets from when
// its cards were shown until an advance closed it to reveal the next ones (`stages`), and every bet
// was placed within its stage's time. So no bet came after its stage closed, when the next cards may
// already have been known to the odds service. A record must list every stage its board shows the
// game reached, so a house cannot hide a late bet by leaving them out.

type Fields = Record<string, unknown>;

/** Stages a game reached, by the cards its record shows: the hole's, then one per reveal. */
const STAGES_FOR_BOARD: Record<number, number> = { 0: 1, 3: 2, 4: 3, 5: 3 };

interface Stage {
  openedAt: number;
  /** Null: still open when the game was voided. */
  closedAt: number | null;
}

/** Epoch milliseconds of an RFC 3339 time as the API writes it, or undefined. */
function msOf(value: unknown): number | undefined {
  if (typeof value !== "string" || !/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?(Z|[+-]\d\d:\d\d)$/.test(value)) {
    return undefined;
  }
  const ms = Date.parse(value);
  return Number.isFinite(ms) ? ms : undefined;
}

/** stages[i], in order from the hole's; a problem when it is malformed or out of time order. */
function stageOf(value: unknown, i: number, previous: Stage | undefined): Stage | string {
  const stage = (typeof value === "object" && value !== null ? value : {}) as Fields;
  if (stage.bettingStage !== i) return `stages[${i}].bettingStage is ${JSON.stringify(stage.bettingStage)}, not ${i}`;
  const openedAt = msOf(stage.openedAt);
  const closedAt = stage.closedAt === null ? null : msOf(stage.closedAt);
  if (openedAt === undefined || closedAt === undefined) return `stages[${i}] must have openedAt and closedAt times`;
  if (closedAt !== null && closedAt < openedAt) return `stages[${i}] closed before it opened`;
  if (previous && (previous.closedAt === null || openedAt < previous.closedAt)) {
    return `stage ${i} opened before stage ${i - 1} closed`;
  }
  return { openedAt, closedAt };
}

/** The record's stages, their number as the board says; a problem when they are not. */
function stagesOf(record: Fields, isVoid: boolean, board: readonly string[]): Stage[] | string {
  if (!Array.isArray(record.stages)) return "stages must be a list";
  const expected = STAGES_FOR_BOARD[board.length];
  if (record.stages.length !== expected) {
    return `stages lists ${record.stages.length}, but a game that showed ${board.length} board cards reached ${expected}`;
  }
  const stages: Stage[] = [];
  for (const [i, value] of record.stages.entries()) {
    const stage = stageOf(value, i, stages[i - 1]);
    if (typeof stage === "string") return stage;
    if (stage.closedAt === null && !(isVoid && i === expected - 1)) {
      return `stage ${i} never closed, but only the last stage of a void game may be left open`;
    }
    stages.push(stage);
  }
  return stages;
}

/** Every bet placed within its stage's time, and the last stage closed by the game's end. */
export function timesProblem(record: Fields, isVoid: boolean, board: readonly string[]): string | null {
  const stages = stagesOf(record, isVoid, board);
  if (typeof stages === "string") return stages;
  if (msOf(record.dealtAt) !== stages[0]!.openedAt) {
    const opened = new Date(stages[0]!.openedAt).toISOString();
    return `dealtAt is ${JSON.stringify(record.dealtAt)}, but the hole's stage opened with the deal, at ${opened}`;
  }
  const finishedAt = msOf(record.finishedAt);
  const last = stages[stages.length - 1]!;
  if (finishedAt === undefined || finishedAt < (last.closedAt ?? last.openedAt)) {
    return `finishedAt is ${JSON.stringify(record.finishedAt)}, but the game ended after its last stage`;
  }
  const bets = (Array.isArray(record.bets) ? record.bets : []) as Fields[];
  for (const [i, bet] of bets.entries()) {
    const stage = stages[bet.bettingStage as number];
    const placedAt = msOf(bet.placedAt);
    if (!stage) return `bets[${i}] is at stage ${String(bet.bettingStage)}, which the game never reached`;
    if (placedAt === undefined) return `bets[${i}].placedAt must be a time`;
    if (placedAt < stage.openedAt) return `bets[${i}] was placed at ${String(bet.placedAt)}, before its stage opened`;
    if (placedAt > (stage.closedAt ?? finishedAt)) {
      const end = stage.closedAt === null ? "the game was voided" : `its stage ${String(bet.bettingStage)} closed`;
      return `bets[${i}] was placed at ${String(bet.placedAt)}, after ${end}`;
    }
  }
  return firstBetProblem(record, bets);
}

/** firstBetAt: the earliest bet's time, or null when nobody bet (the bets' times are checked by then). */
function firstBetProblem(record: Fields, bets: readonly Fields[]): string | null {
  const times = bets.map((bet) => msOf(bet.placedAt)!);
  const first = times.length === 0 ? null : Math.min(...times);
  const shown = record.firstBetAt === null ? null : msOf(record.firstBetAt);
  if (shown === first) return null;
  const when = first === null ? "nobody bet" : `the first bet was placed at ${new Date(first).toISOString()}`;
  return `firstBetAt is ${JSON.stringify(record.firstBetAt) ?? "absent"}, but ${when}`;
}
