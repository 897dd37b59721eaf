// The one place messages appear: errors (and NACKs) as alerts, confirmations as polite status.

export interface Message {
  kind: "error" | "info";
  text: string;
}

export function Notice({ message }: { message: Message | null }) {
  return (
    <div class="notice-area">
      <p role="alert" class={message?.kind === "error" ? "notice notice--error" : "notice--empty"}>
        {message?.kind === "error" ? message.text : ""}
      </p>
      <p role="status" class={message?.kind === "info" ? "notice notice--info" : "notice--empty"}>
        {message?.kind === "info" ? message.text : ""}
      </p>
    </div>
  );
}
