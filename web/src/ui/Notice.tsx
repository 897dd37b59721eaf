// The one place messages appear: errors (and NACKs) as alerts, confirmations as polite status. A
// message sits in the page's flow where its move was made, so it never covers a control.

export interface Message {
  kind: "error" | "info";
  text: string;
  /** Where the move was made (a hand's bet form), when not at the top of the screen. */
  place?: string;
  /** It refuses the amount typed in the form at its place, which is marked invalid and described by it. */
  refusesAmount?: boolean;
}

/** The id of the message shown at `place`. */
const noticeId = (place: string): string => `${place}-message`;

/** The id of the message refusing the amount of the form at `place`, while one is shown. */
export const refusalAt = (message: Message | null, place: string): string | undefined =>
  message?.place === place && message.refusesAmount ? noticeId(place) : undefined;

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
      <p role="alert" id={place === undefined ? undefined : noticeId(place)}>
        {shown?.kind === "error" ? shown.text : ""}
      </p>
      <p role="status">{shown?.kind === "info" ? shown.text : ""}</p>
      {shown && onDismiss ? (
        <button type="button" class="notice-dismiss" aria-label="Dismiss this message" onClick={onDismiss}>
          Dismiss
        </button>
      ) : null}
    </div>
  );
}
