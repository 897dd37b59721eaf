import { useState } from "preact/hooks";
import { describe } from "../../api/client";
import type { VerifyResult } from "../../fairness/verify";

/** A reason ends a sentence; one that already ends in a shortened hash ("…") needs no second stop. */
const sentence = (reason: string): string => (/[.…]$/.test(reason) ? reason : `${reason}.`);

/** A message that was a sentence of its own, continuing one ("Not checked: too many …"). */
const clause = (message: string): string => message.charAt(0).toLowerCase() + message.slice(1);

/** Where the on-demand check is: not run, running, run with its verdict, or not made (what it needs was not read). */
type Check =
  | { kind: "idle" }
  | { kind: "running" }
  | { kind: "done"; result: VerifyResult }
  | { kind: "unchecked"; reason: string };

interface Props {
  /** The button's text, e.g. "Verify this game". */
  button: string;
  verify: () => Promise<VerifyResult>;
  /** What a passing check means here: it claims more at a table than for a deal without bets. */
  verified: string;
}

/**
 * Runs the in-browser verifier on demand and shows its verdict: a pass as polite status, a failure
 * as an alert with the precise reason. A check `verify` could not make (it threw: a rate limit, an
 * unreachable server) is no verdict, and says so as status. Both live regions are always present, so
 * screen readers announce whatever appears in them.
 */
export function VerifyAction({ button, verify, verified }: Props) {
  const [check, setCheck] = useState<Check>({ kind: "idle" });
  const run = async () => {
    setCheck({ kind: "running" });
    try {
      setCheck({ kind: "done", result: await verify() });
    } catch (error) {
      setCheck({ kind: "unchecked", reason: describe(error) });
    }
  };
  const result = check.kind === "done" ? check.result : null;
  const verdict =
    result === null ? (check.kind === "unchecked" ? "unchecked" : undefined) : result.ok ? "verified" : "failed";
  const status =
    check.kind === "running"
      ? "Checking in this browser…"
      : check.kind === "unchecked"
        ? `Not checked: ${sentence(clause(check.reason))}`
        : result?.ok
          ? verified
          : "";
  return (
    <div class="verify" data-testid="verify" data-verdict={verdict}>
      <button type="button" disabled={check.kind === "running"} onClick={() => void run()}>
        {button}
      </button>
      <p role="status" class={result?.ok || check.kind === "unchecked" ? "notice notice--info" : "notice--empty"}>
        {status}
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
