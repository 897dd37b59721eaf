// Slots: a cap in all and per key, a release that gives back exactly one slot however often it is called.
import test from "ava";
import { Slots } from "../src/slots.js";

test("each key has its own cap; the total caps them all; 0 is no cap", (t) => {
  const slots = new Slots(3, 2);
  t.is(typeof slots.take("a"), "function");
  t.is(typeof slots.take("a"), "function");
  t.is(slots.take("a"), "key full");
  t.is(typeof slots.take("b"), "function");
  t.is(slots.take("c"), "all full");
  const unlimited = new Slots(0, 0);
  for (let i = 0; i < 1_000; i++) t.is(typeof unlimited.take("a"), "function");
});

test("a release gives back one slot, once", (t) => {
  const slots = new Slots(0, 1);
  const release = slots.take("a");
  if (typeof release !== "function") return t.fail(release);
  t.is(slots.take("a"), "key full");
  release();
  release();
  const again = slots.take("a");
  t.is(typeof again, "function");
  t.is(slots.take("a"), "key full", "the second release gave back nothing more");
});
