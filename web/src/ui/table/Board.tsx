import type { TableState } from "../../api/client";
import { Card } from "../Card";

/** The five community cards, face down until revealed. */
export function Board({ state }: { state: TableState }) {
  const slots: [string, string | null][] = [
    ["Flop", state.flopCard1],
    ["Flop", state.flopCard2],
    ["Flop", state.flopCard3],
    ["Turn", state.turnCard],
    ["River", state.riverCard],
  ];
  return (
    <section aria-labelledby="board-title" class="panel">
      <h2 id="board-title">Board</h2>
      <ol class="board" data-testid="board">
        {slots.map(([name, code], i) => (
          <li key={i}>
            <Card code={code} />
            <span class="slot-name">{name}</span>
          </li>
        ))}
      </ol>
    </section>
  );
}
