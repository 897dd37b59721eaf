import { useState } from "preact/hooks";
import { api, ApiError, unwrap, type BulkResponse } from "../api/client";
import { bulkReveal } from "../fairness/reveals";
import { BulkGameView } from "./BulkGameView";
import { RevealedGame } from "./fairness/RevealedGame";
import { Notice } from "./Notice";
import { useAction } from "./use-action";

interface Settings {
  numberOfGames: string;
  numberOfHands: 3 | 4;
  targetRtp: string;
}

/** The form's labels for the request's fields, so a refusal reads as the form does. */
const FIELD_LABELS: Record<keyof Settings, string> = {
  numberOfGames: "Games",
  numberOfHands: "Hands",
  targetRtp: "Target return to player",
};

const FIELD_NAMES = new RegExp(`\\b(${Object.keys(FIELD_LABELS).join("|")})\\b`, "g");

const inLabels = (error: unknown): unknown =>
  error instanceof ApiError
    ? new ApiError(
        error.message.replace(FIELD_NAMES, (field) => FIELD_LABELS[field as keyof Settings]),
        error.status,
      )
    : error;

/** Generate N pre-calculated games, then step through each one's stages. */
export function BulkScreen() {
  const [settings, setSettings] = useState<Settings>({ numberOfGames: "10", numberOfHands: 3, targetRtp: "0.97" });
  const [batch, setBatch] = useState<BulkResponse | null>(null);
  const { busy, message, run } = useAction();
  const submit = (event: Event) => {
    event.preventDefault();
    void run(async () => {
      // Numbers go as typed (or NaN, sent as null): the API's own message says what it takes.
      const body = {
        numberOfGames: Number(settings.numberOfGames),
        numberOfHands: settings.numberOfHands,
        targetRtp: Number(settings.targetRtp),
      };
      setBatch(null);
      setBatch(
        await unwrap(api.POST("/api/games/bulk", { body })).catch((error: unknown) => {
          throw inLabels(error);
        }),
      );
    });
  };
  const set = (patch: Partial<Settings>) => setSettings({ ...settings, ...patch });
  return (
    <>
      <h1 id="screen-title" tabIndex={-1}>
        Bulk games
      </h1>
      <p>Pre-calculated whole games with the house's odds at every stage.</p>
      <form class="inline-form" onSubmit={submit}>
        <label>
          Games (1–200)
          <input
            inputMode="numeric"
            size={4}
            value={settings.numberOfGames}
            onInput={(e) => set({ numberOfGames: e.currentTarget.value })}
          />
        </label>
        <label>
          Hands
          <select
            value={settings.numberOfHands}
            onChange={(e) => set({ numberOfHands: e.currentTarget.value === "4" ? 4 : 3 })}
          >
            <option value="3">3</option>
            <option value="4">4</option>
          </select>
        </label>
        <label>
          Target return to player
          <input
            inputMode="decimal"
            size={5}
            value={settings.targetRtp}
            onInput={(e) => set({ targetRtp: e.currentTarget.value })}
          />
        </label>
        <button type="submit" class="primary" disabled={busy}>
          Generate
        </button>
      </form>
      <Notice message={message} />
      {busy ? <p role="status">Generating…</p> : null}
      {batch ? <BulkBatch batch={batch} /> : null}
    </>
  );
}

function BulkBatch({ batch }: { batch: BulkResponse }) {
  const [index, setIndex] = useState(0);
  const game = batch.games[index];
  if (!game) return <p>The batch is empty.</p>;
  const last = batch.games.length - 1;
  return (
    <section aria-labelledby="batch-title" class="panel" data-testid="bulk-batch">
      <h2 id="batch-title">
        Game {index + 1} of {batch.games.length}: {game.gameId}
      </h2>
      <p class="hint">
        {batch.numberOfHands} hands, target return {batch.targetRtp}, generated{" "}
        {new Date(batch.generatedAt).toLocaleString()}.
      </p>
      <div class="controls">
        <button type="button" disabled={index === 0} onClick={() => setIndex(index - 1)}>
          Previous game
        </button>
        <button type="button" disabled={index === last} onClick={() => setIndex(index + 1)}>
          Next game
        </button>
      </div>
      <BulkGameView key={game.gameId} game={game} />
      <div class="subsection">
        <h3>Provably fair deck</h3>
        <RevealedGame key={game.gameId} reveal={bulkReveal(game)} button="Verify this game" />
      </div>
    </section>
  );
}
