import { useId, useState } from "preact/hooks";
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
  testId?: string;
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
  testId,
}: Props) {
  const [text, setText] = useState(initial);
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
          inputMode="decimal"
          autoComplete="off"
          size={8}
          value={text}
          aria-invalid={refusal ? "true" : undefined}
          aria-describedby={refusal}
          onInput={(e) => {
            setText(e.currentTarget.value);
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
