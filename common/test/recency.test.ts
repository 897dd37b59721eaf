import test from "ava";
import { forgetOldest } from "../src/recency.js";

test("forgetOldest keeps the keys set last, in their order, and leaves a map within its bound alone", (t) => {
  const map = new Map(["a", "b", "c", "d", "e"].map((key, i) => [key, i]));
  map.delete("a");
  map.set("a", 0); // used again: now the newest
  forgetOldest(map, 10);
  t.deepEqual([...map.keys()], ["b", "c", "d", "e", "a"]);
  forgetOldest(map, 2);
  t.deepEqual(
    [...map.entries()],
    [
      ["e", 4],
      ["a", 0],
    ],
  );
  forgetOldest(map, 0);
  t.is(map.size, 0);
});
