// The web client's wording of the API's error messages (web/src/model/sentence.ts), run under Node:
// the API writes them lower case and without a stop; the page shows sentences.
import test from "ava";
import { asSentence } from "../../web/src/model/sentence.js";

test("the API's message is shown as a sentence, its words unchanged", (t) => {
  t.is(
    asSentence("the table moved on to the turn of game T1-1 before this bet at the flop: no bet placed"),
    "The table moved on to the turn of game T1-1 before this bet at the flop: no bet placed.",
  );
  t.is(asSentence("Already a sentence."), "Already a sentence.");
  t.is(asSentence("is 5 allowed?"), "Is 5 allowed?");
  t.is(asSentence("a"), "A.");
  t.is(
    asSentence("numberOfGames must be at most 200"),
    "numberOfGames must be at most 200.",
    "a field's name as spelt",
  );
});
