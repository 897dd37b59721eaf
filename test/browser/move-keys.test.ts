// The web client's Idempotency-Keys for a player's moves (web/src/api/move-keys.ts), run under Node:
// a move whose outcome is unknown (no answer, or a 5xx) is sent again under the same key, whatever
// came between, so the server answers its first result instead of making it twice; a move whose
// outcome is known gets a new key; only an answer to the move ends its key, and a player's keys at a table
// outlive the screen that made them.
import test from "ava";
import { keyedMoves, unconfirmedMessage } from "../../web/src/api/move-keys.js";
import { asSentence } from "../../web/src/model/sentence.js";
import { MOVE_OUTCOME_UNKNOWN } from "../../gateway/src/http/errors.js";
import { UNFINISHED_AT_CLOSE } from "../../gateway/src/http-server.js";

/** A failure as the client's ApiError carries it: the HTTP status, 0 for no answer. */
const failure = (status: number) => Object.assign(new Error("refused"), { status });

let keys = 0;
const newKey = () => `key-${++keys}`;

/** Sends `move`, answering with `outcome` (a status to fail with, or "ok"); the key it was sent under. */
async function sendAs(keys: ReturnType<typeof keyedMoves>, move: string, outcome: number | "ok"): Promise<string> {
  let sentKey = "";
  await keys
    .send(move, async (key) => {
      sentKey = key;
      if (outcome !== "ok") throw failure(outcome);
    })
    .catch(() => undefined);
  return sentKey;
}

test("after no answer or a 5xx the same move keeps its key, whatever came between; after an answer, a new key", async (t) => {
  let refreshes = 0;
  const send = keyedMoves("p1 at 1", newKey, () => refreshes++);
  const first = await sendAs(send, "bet g1 0 1 2 10", 0);
  t.is(await sendAs(send, "bet g1 0 1 2 10", 503), first, "a retry after a network fault: the same key");
  t.is(await sendAs(send, "bet g1 0 1 2 10", "ok"), first, "and again after a 503");
  t.is(refreshes, 2, "the table is read after each unknown outcome");
  const next = await sendAs(send, "bet g1 0 1 2 10", "ok");
  t.not(next, first, "the same terms after a success: a new bet");

  const topUp = await sendAs(send, "topup 5", 500);
  const bet = await sendAs(send, "bet g1 1 1 0 10", 0);
  t.not(await sendAs(send, "leave", "ok"), topUp);
  t.is(
    await sendAs(send, "topup 5", "ok"),
    topUp,
    "other moves in between, even unconfirmed ones, keep the retry's key",
  );
  t.is(await sendAs(send, "bet g1 1 1 0 10", "ok"), bet);
  t.not(await sendAs(send, "topup 5", "ok"), topUp, "until its outcome is known");

  const refused = await sendAs(send, "topup 5", 409);
  t.not(await sendAs(send, "topup 5", "ok"), refused, "a refusal is an answer: nothing was made");
  const limited = await sendAs(send, "topup 5", 429);
  t.not(await sendAs(send, "topup 5", "ok"), limited);
});

test("a move not confirmed is told in the player's words: it may have been made, and what doing it again does", (t) => {
  for (const status of [0, 500, 503]) {
    t.regex(
      unconfirmedMessage(failure(status)) ?? "",
      /may or may not have been made.*Try again.*will not make it twice/,
    );
  }
  // Why: no answer at all, or the server's own words.
  t.regex(unconfirmedMessage(failure(0)) ?? "", /^No answer reached this page/);
  // As the page's client gives the server's words: a sentence, whose stop the parenthesis drops.
  const unavailable = Object.assign(new Error("Table service unavailable."), { status: 503 });
  t.regex(unconfirmedMessage(unavailable) ?? "", /\(the server said: Table service unavailable\), so it may/);
  // A money move's 5xx tells an API client how to learn the outcome: the page does that itself, in
  // the player's words, so of the server's answer only its why shows.
  for (const [answer, why] of [
    [`wallet service unavailable: ${MOVE_OUTCOME_UNKNOWN}`, "Wallet service unavailable"],
    [`table 3 is busy; retry with the same idempotency key: ${MOVE_OUTCOME_UNKNOWN}`, "Table 3 is busy"],
    [UNFINISHED_AT_CLOSE, "This gateway is shutting down and did not finish the request"],
  ]) {
    const shown = unconfirmedMessage(Object.assign(new Error(asSentence(answer!)), { status: 503 })) ?? "";
    t.true(
      shown.startsWith(`The table could not finish this move just now (the server said: ${why}), so it may`),
      shown,
    );
    t.notRegex(shown, /Idempotency-Key|idempotency key/i, shown);
  }
  for (const status of [400, 403, 409, 429]) t.is(unconfirmedMessage(failure(status)), null, `${status}`);
  t.is(unconfirmedMessage(new Error("no status")), null);
});

test("send learns whether it resends a move not confirmed", async (t) => {
  const keys = keyedMoves("p1 at 2", newKey, () => {});
  const resends: boolean[] = [];
  const attempt = (outcome: number | "ok") =>
    keys
      .send("bet g2 0 1 2 10", async (_key, resent) => {
        resends.push(resent);
        if (outcome !== "ok") throw failure(outcome);
      })
      .catch(() => undefined);
  await attempt(503);
  await attempt("ok");
  await attempt("ok");
  t.deepEqual(resends, [false, true, false], "only the send right after an unknown outcome resends");
});

test("a resend refused before the server looked its key up keeps the key; an answer to the move ends it", async (t) => {
  const keys = keyedMoves("p1 at 3", newKey, () => {});
  const bet = "bet g3 0 1 2 10";
  const first = await sendAs(keys, bet, 503);
  // The edge's rate limit, an expired token, a move still running: the first send is still unknown.
  for (const status of [429, 401, 409]) t.is(await sendAs(keys, bet, status), first, `after a ${status}`);
  t.is(await sendAs(keys, bet, 200), first, "a NACK (a 200 raised as a refusal) answers the move");
  t.not(await sendAs(keys, bet, "ok"), first, "so the next is a new bet");

  const topUp = await sendAs(keys, "topup 5", 0);
  t.is(await sendAs(keys, "topup 5", 422), topUp, "a 422 answers it too: the key was used for other terms");
  t.not(await sendAs(keys, "topup 5", "ok"), topUp);
});

test("forget ends the kept keys it names; the others stay", async (t) => {
  const keys = keyedMoves("p1 at 4", newKey, () => {});
  const leave = await sendAs(keys, "leave", 503);
  const topUp = await sendAs(keys, "topup 5", 503);
  const bet = await sendAs(keys, "bet g4 0 1 2 10", 503);
  keys.forget((move) => /^(sit|topup|leave)\b/.test(move));
  t.not(await sendAs(keys, "leave", "ok"), leave);
  t.not(await sendAs(keys, "topup 5", "ok"), topUp);
  t.is(await sendAs(keys, "bet g4 0 1 2 10", "ok"), bet);
});

test("a place's kept keys outlive the screen that made them; another place's are its own", async (t) => {
  const before = keyedMoves("p1 at 5", newKey, () => {});
  const topUp = await sendAs(before, "topup 5", 503);
  // The player goes to the lobby and back: the table's screen makes its moves again.
  const after = keyedMoves("p1 at 5", newKey, () => {});
  t.not(
    await sendAs(
      keyedMoves("p2 at 5", newKey, () => {}),
      "topup 5",
      "ok",
    ),
    topUp,
    "another player",
  );
  t.not(
    await sendAs(
      keyedMoves("p1 at 6", newKey, () => {}),
      "topup 5",
      "ok",
    ),
    topUp,
    "another table",
  );
  t.is(await sendAs(after, "topup 5", "ok"), topUp);
});
