import { cardFace } from "../model/cards";

/** One playing card, or a face-down slot when `code` is null. */
export function Card({ code }: { code: string | null | undefined }) {
  if (!code) {
    return (
      <span class="card card--down" role="img" aria-label="not dealt yet">
        <span aria-hidden="true">?</span>
      </span>
    );
  }
  const face = cardFace(code);
  return (
    <span class={face.red ? "card card--red" : "card"} role="img" aria-label={face.name} data-card={code}>
      <span aria-hidden="true">
        {face.rank}
        {face.symbol}
      </span>
    </span>
  );
}

export function Cards({ codes, label }: { codes: (string | null | undefined)[]; label: string }) {
  return (
    <span class="cards" role="group" aria-label={label}>
      {codes.map((code, i) => (
        <Card key={i} code={code} />
      ))}
    </span>
  );
}
