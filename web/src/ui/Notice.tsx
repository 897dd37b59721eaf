// The one place messages appear: errors (and NACKs) as alerts, confirmations as polite status. A
// message sits in the page's flow where its move was made, so it never covers a control.

export interface Message {
  kind: "error" | "info";
  text: string;
  /** Where the move was made (a hand's bet form), when not at the top of the screen. */
  place?: string;
}

interface Props {
  message: Message | null;
  /** Shows only the message made here; the top of the screen when absent. */
  place?: string;
  /** Offers a button that takes the message away. */
  onDismiss?: () => void;
}

export function Notice({ message, place, onDismiss }: Props) {
  const shown = message !== null && message.place === place ? message : null;
  // The live regions stay rendered, empty, so a screen reader announces what is written into them.
  return (
    <div class={shown ? `notice notice--${shown.kind} notice--shown` : "notice-area"}>
      <p role="alert">{shown?.kind === "error" ? shown.text : ""}</p>
      <p role="status">{shown?.kind === "info" ? shown.text : ""}</p>
      {shown && onDismiss ? (
        <button type="button" class="notice-dismiss" aria-label="Dismiss this message" onClick={onDismiss}>
          Dismiss
        </button>
      ) : null}
    </div>
  );
}
