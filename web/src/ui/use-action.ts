import { useCallback, useRef, useState } from "preact/hooks";
import { describe, Refused } from "../api/client";
import { refusalAt, type Message } from "./Notice";

/** Where a move's messages show: at `place` (the top of the screen when absent), a NACK beside `form` (else at `place`). */
interface Where {
  place?: string;
  form?: string;
}

const at = (place: string | undefined) => (place ? { place } : {});

/** An error as a message: the API's words (or a plain sentence), a NACK's beside its form. */
function failure(error: unknown, { place, form }: Where): Message {
  const text = describe(error);
  if (!(error instanceof Refused)) return { kind: "error", text, ...at(place) };
  return { kind: "error", text, ...at(form ?? place), ...(error.amountAtFault ? { refusesAmount: true } : {}) };
}

/**
 * Runs one player action at a time: `busy` while it runs (another asked for meanwhile is ignored:
 * the buttons stay focusable, aria-disabled rather than disabled), its outcome as a message, never a
 * stack trace. `where` puts the message where the move was made (see Notice).
 */
export function useAction() {
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<Message | null>(null);
  const running = useRef(false);
  const run = useCallback(async (action: () => Promise<string | void>, where: Where = {}): Promise<boolean> => {
    if (running.current) return false;
    running.current = true;
    setBusy(true);
    setMessage(null);
    try {
      const done = await action();
      if (done) setMessage({ kind: "info", text: done, ...at(where.place) });
      return true;
    } catch (error) {
      setMessage(failure(error, where));
      return false;
    } finally {
      running.current = false;
      setBusy(false);
    }
  }, []);
  /** What the amount form at `place` takes: its typos refused beside it, and its refusal until the amount is edited. */
  const amountField = (place: string) => ({
    refusal: refusalAt(message, place),
    onEdit: () => setMessage((shown) => (refusalAt(shown, place) ? null : shown)),
    onProblem: (text: string) => setMessage({ kind: "error", text, place, refusesAmount: true }),
  });
  return { busy, message, setMessage, run, amountField };
}
