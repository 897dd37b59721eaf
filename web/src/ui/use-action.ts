import { useCallback, useRef, useState } from "preact/hooks";
import { describe } from "../api/client";
import type { Message } from "./Notice";

/**
 * Runs one player action at a time: `busy` while it runs (another asked for meanwhile is ignored:
 * the buttons stay focusable, aria-disabled rather than disabled), its outcome as a message. Errors
 * become the API's message (or a plain sentence), never a stack trace. `place` puts the message
 * where the move was made (see Notice).
 */
export function useAction() {
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<Message | null>(null);
  const running = useRef(false);
  const run = useCallback(async (action: () => Promise<string | void>, place?: string): Promise<boolean> => {
    if (running.current) return false;
    running.current = true;
    setBusy(true);
    setMessage(null);
    try {
      const done = await action();
      if (done) setMessage({ kind: "info", text: done, ...(place ? { place } : {}) });
      return true;
    } catch (error) {
      setMessage({ kind: "error", text: describe(error), ...(place ? { place } : {}) });
      return false;
    } finally {
      running.current = false;
      setBusy(false);
    }
  }, []);
  return { busy, message, setMessage, run };
}
