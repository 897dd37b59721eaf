import { useId, useLayoutEffect, useRef, useState } from "preact/hooks";
import { parseAmount } from "../model/money";

interface Props {
  label: string;
  button: string;
  initial: string;
  busy: boolean;
  /** The parsed amount; a typo is refused here with a message, before any request. */
  onAmount(amount: number): void;
  onProblem(text: string): void;
  /** Said beside the button about the amount typed (what a stake would return); nothing for a typo. */
  hint?: (amount: number) => string;
  /** The id of a message refusing the amount typed: the field is marked invalid and described by it. */
  refusal?: string;
  /** The amount was edited (a refusal of the one before no longer holds). */
  onEdit?: () => void;
  /** Kept by the caller while the form is gone (a stage closed for a reveal): what it comes back with. */
  memory?: FieldMemory;
  testId?: string;
}

/** The text typed in a field, and whether it had the focus when its form went away. */
export interface FieldMemory {
  text?: string;
  focused?: boolean;
}

/** A labelled amount field and its button, submitted by Enter as well. */
export function AmountForm({
  label,
  button,
  initial,
  busy,
  onAmount,
  onProblem,
  hint,
  refusal,
  onEdit,
  memory,
  testId,
}: Props) {
  const [text, setText] = useState(memory?.text ?? initial);
  const input = useRef<HTMLInputElement>(null);
  // Back with the focus it had: a stage that closed and reopened under the player's typing would
  // otherwise leave the keys they type going nowhere.
  useLayoutEffect(() => {
    if (memory?.focused) input.current?.focus();
  }, []);
  const hintId = useId();
  const parsed = parseAmount(text);
  const submit = (event: Event) => {
    event.preventDefault();
    if (busy) return;
    if ("problem" in parsed) onProblem(parsed.problem);
    else onAmount(parsed.amount);
  };
  return (
    <form class="inline-form" onSubmit={submit} data-testid={testId}>
      <label>
        {label}
        <input
          ref={input}
          inputMode="decimal"
          autoComplete="off"
          size={8}
          value={text}
          aria-invalid={refusal ? "true" : undefined}
          aria-describedby={refusal}
          onFocus={() => {
            if (memory) memory.focused = true;
          }}
          // A blur that leaves the field in the page is the player's; one from its removal is not.
          onBlur={(e) => {
            const field = e.currentTarget;
            setTimeout(() => {
              if (memory && field.isConnected) memory.focused = false;
            });
          }}
          onInput={(e) => {
            setText(e.currentTarget.value);
            if (memory) memory.text = e.currentTarget.value;
            onEdit?.();
          }}
        />
      </label>
      {/* aria-disabled, not disabled: a disabled button drops the keyboard focus. */}
      <button type="submit" aria-disabled={busy} aria-describedby={hint ? hintId : undefined}>
        {button}
      </button>
      {hint ? (
        <span id={hintId} class="hint amount-hint" data-testid={testId ? `${testId}-hint` : undefined}>
          {"amount" in parsed ? hint(parsed.amount) : ""}
        </span>
      ) : null}
    </form>
  );
}
