import test from "ava";
import { CARD_CODE_PATTERN, DECK_SIZE, RANK_CHARS, SUIT_CHARS } from "../src/card-codes.js";

test("the pattern admits exactly the 52 codes made of a rank and a suit", (t) => {
  const card = new RegExp(`^${CARD_CODE_PATTERN}$`);
  const codes = [...RANK_CHARS].flatMap((rank) => [...SUIT_CHARS].map((suit) => rank + suit));
  t.is(codes.length, DECK_SIZE);
  t.is(DECK_SIZE, 52);
  t.true(codes.every((code) => card.test(code)));
  let admitted = 0;
  for (let a = 0x20; a < 0x7f; a++) {
    for (let b = 0x20; b < 0x7f; b++) if (card.test(String.fromCharCode(a, b))) admitted++;
  }
  t.is(admitted, DECK_SIZE);
});
