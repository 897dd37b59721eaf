import { holeCards } from "../model/cards";
import { Cards } from "./Card";

/** The headings over HandCells, in the same order. */
export function HandHeadings() {
  return (
    <>
      <th scope="col">Hand</th>
      <th scope="col">Cards</th>
    </>
  );
}

/** A dealt hand's number, heading its row, and its hole cards. */
export function HandCells({ handIndex, hand }: { handIndex: number; hand: string }) {
  return (
    <>
      <th scope="row">{handIndex + 1}</th>
      <td class="hole-cards">
        <Cards codes={holeCards(hand)} label={`Hand ${handIndex + 1}`} />
      </td>
    </>
  );
}
