import { useState } from "preact/hooks";
import type { VerifyResult } from "../../fairness/verify";

/** A reason ends a sentence; one that already ends in a shortened hash ("…") needs no second stop. */
const sentence = (reason: string): string => (/[.…]$/.test(reason) ? reason : `${reason}.`);

/** Where the on-demand check is: not run, running, or run with its verdict. */
type Check = { kind: "idle" } | { kind: "running" } | { kind: "done"; result: VerifyResult };

interface Props {
  /** The button's text, e.g. "Verify this game". */
  button: string;
  verify: () => Promise<VerifyResult>;
  /** What a passing check means here: it claims more at a table than for a deal without bets. */
  verified: string;
}

/**
 * Runs the in-browser verifier on demand and shows its verdict: a pass as polite status, a failure
 * as an alert with the precise reason. Both live regions are always present, so screen readers
 * announce whatever appears in them.
 */
export function VerifyAction({ button, verify, verified }: Props) {
  const [check, setCheck] = useState<Check>({ kind: "idle" });
  const run = async () => {
    setCheck({ kind: "running" });
    setCheck({ kind: "done", result: await verify() });
  };
  const result = check.kind === "done" ? check.result : null;
  const verdict = result === null ? undefined : result.ok ? "verified" : "failed";
  return (
    <div class="verify" data-testid="verify" data-verdict={verdict}>
      <button type="button" disabled={check.kind === "running"} onClick={() => void run()}>
        {button}
      </button>
      <p role="status" class={result?.ok ? "notice notice--info" : "notice--empty"}>
        {check.kind === "running" ? "Checking in this browser…" : result?.ok ? verified : ""}
      </p>
      <p role="alert" class={result && !result.ok ? "notice notice--error" : "notice--empty"}>
        {result && !result.ok ? <strong>Not verified: {sentence(result.reason)}</strong> : ""}
      </p>
      {result?.ok ? (
        <details>
          <summary>The derived deck, first card first</summary>
          <code class="deck" data-testid="derived-deck">
            {result.deck.join(" ")}
          </code>
        </details>
      ) : null}
    </div>
  );
}
