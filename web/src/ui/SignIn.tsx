import { useEffect, useState } from "preact/hooks";
import { describe, problem } from "../api/client";
import { describeSignInError, finishSignIn, isSignInCallback, startSignIn } from "../auth/oidc";
import { devToken, loadClientConfig, type ClientConfig, type DevRole } from "../auth/server-config";
import type { Session } from "../auth/session";
import { Notice } from "./Notice";
import { useAction } from "./use-action";

interface Props {
  /** Why the player was signed out, if not by choice. */
  reason: string | null;
  onSignedIn(session: Session): void;
}

export function SignIn({ reason, onSignedIn }: Props) {
  const [config, setConfig] = useState<ClientConfig | null>(null);
  const { busy, message, setMessage, run } = useAction();

  useEffect(() => {
    if (reason) setMessage({ kind: "error", text: reason });
    if (isSignInCallback()) {
      finishSignIn().then(onSignedIn, (error: unknown) =>
        setMessage({ kind: "error", text: describeSignInError(error) }),
      );
    }
    loadClientConfig().then(setConfig, (error: unknown) =>
      setMessage({ kind: "error", text: `Sign-in is unavailable: ${describe(error)}` }),
    );
  }, []);

  return (
    <main class="sign-in">
      <h1 id="screen-title" tabIndex={-1}>
        Poker odds
      </h1>
      <p>Several hands are dealt at once. Bet on the one that will win, at the hole, the flop and the turn.</p>
      <Notice message={message} />
      {config === null ? <p>Loading the sign-in options…</p> : null}
      {config?.oidc ? (
        <section aria-labelledby="oidc-title">
          <h2 id="oidc-title">Sign in</h2>
          <button
            type="button"
            class="primary"
            disabled={busy}
            onClick={() =>
              void run(async () => {
                try {
                  await startSignIn(config.oidc!);
                } catch (error) {
                  throw problem(describeSignInError(error));
                }
              })
            }
          >
            Sign in with {new URL(config.oidc.issuer).host}
          </button>
        </section>
      ) : null}
      {config?.devSignIn ? <DevSignIn busy={busy} run={run} onSignedIn={onSignedIn} /> : null}
      {config && !config.oidc && !config.devSignIn ? <p>No way to sign in is configured on this server.</p> : null}
    </main>
  );
}

interface DevProps {
  busy: boolean;
  run: ReturnType<typeof useAction>["run"];
  onSignedIn(session: Session): void;
}

function DevSignIn({ busy, run, onSignedIn }: DevProps) {
  const [playerId, setPlayerId] = useState("");
  const [role, setRole] = useState<DevRole>("BASIC_USER");
  const submit = (event: Event) => {
    event.preventDefault();
    const id = playerId.trim();
    void run(async () => {
      if (id === "") throw problem("Enter a player id.");
      onSignedIn({ token: await devToken(id, role), playerId: id });
    });
  };
  return (
    <section aria-labelledby="dev-title" data-testid="dev-sign-in">
      <h2 id="dev-title">Development sign-in</h2>
      <p class="hint">
        This server runs its own development token issuer: pick any player id. A real identity provider replaces this
        form.
      </p>
      <form onSubmit={submit} class="stack">
        <label>
          Player id
          <input
            name="playerId"
            autoComplete="username"
            value={playerId}
            maxLength={256}
            onInput={(e) => setPlayerId(e.currentTarget.value)}
          />
        </label>
        <label>
          Role
          <select name="role" value={role} onChange={(e) => setRole(e.currentTarget.value as DevRole)}>
            <option value="BASIC_USER">Player</option>
            <option value="PAYING_USER">Paying player (own table)</option>
            <option value="ANON_USER">Anonymous player</option>
            <option value="ADMIN">Admin</option>
          </select>
        </label>
        <button type="submit" class="primary" disabled={busy}>
          Sign in
        </button>
      </form>
    </section>
  );
}
