// Sign-in with a real identity provider: OpenID Connect authorization code flow with PKCE, as a
// public client (no secret can be kept in a browser). The access token is what the API verifies;
// the ID token's subject is the playerId.
import * as oauth from "oauth4webapi";
import { ApiError } from "../api/client";
import { tokenClaims, type Session } from "./session";

interface OidcSettings {
  issuer: string;
  clientId: string;
  audience: string;
}

interface PendingSignIn {
  issuer: string;
  clientId: string;
  verifier: string;
  state: string;
  nonce: string;
  /** The screen the sign-in started from (its hash), shown again after it. */
  returnTo: string;
}

/** A screen's hash ("#/table/3"): nothing else is put back in the address bar. */
const SCREEN_HASH = /^#\/[\w/-]{0,64}$/;

const PENDING = "pokerodds.oidc.pending";

/** The page's own address is the redirect URI: the provider sends the code back to "/". */
const redirectUri = () => `${location.origin}/`;

// Same rule as the gateway's for AUTH_JWKS_URL: https, plain http only on this machine.
const isLoopback = (url: URL) => ["localhost", "127.0.0.1", "[::1]"].includes(url.hostname);

function httpOptions(issuer: URL): { [oauth.allowInsecureRequests]?: boolean } {
  return issuer.protocol === "http:" && isLoopback(issuer) ? { [oauth.allowInsecureRequests]: true } : {};
}

async function discover(issuer: URL): Promise<oauth.AuthorizationServer> {
  const response = await oauth.discoveryRequest(issuer, { algorithm: "oidc", ...httpOptions(issuer) });
  return oauth.processDiscoveryResponse(issuer, response);
}

/** Sends the browser to the provider's sign-in page. */
export async function startSignIn(settings: OidcSettings): Promise<void> {
  const issuer = new URL(settings.issuer);
  const server = await discover(issuer);
  if (!server.authorization_endpoint) throw new ApiError("The identity provider has no sign-in page.", 0);
  const pending: PendingSignIn = {
    ...settings,
    verifier: oauth.generateRandomCodeVerifier(),
    state: oauth.generateRandomState(),
    nonce: oauth.generateRandomNonce(),
    returnTo: SCREEN_HASH.test(location.hash) ? location.hash : "",
  };
  sessionStorage.setItem(PENDING, JSON.stringify(pending));
  const url = new URL(server.authorization_endpoint);
  url.search = new URLSearchParams({
    client_id: settings.clientId,
    redirect_uri: redirectUri(),
    response_type: "code",
    scope: "openid email profile",
    // Auth0 issues an access token for the API (a JWT with its aud) only when asked by audience;
    // other providers ignore a parameter they do not know (RFC 6749, 3.1).
    audience: settings.audience,
    code_challenge: await oauth.calculatePKCECodeChallenge(pending.verifier),
    code_challenge_method: "S256",
    state: pending.state,
    nonce: pending.nonce,
    // The provider asks for the player's credentials at every sign-in: signing out here clears only
    // this tab's session, and on a shared computer the next person would otherwise be signed in to
    // the last player's account, money included, by the provider's own session.
    prompt: "login",
  }).toString();
  location.assign(url.href);
}

/** True when the page was opened by the provider's redirect (a code or an error, and our state). */
export function isSignInCallback(): boolean {
  const query = new URLSearchParams(location.search);
  return query.has("state") && (query.has("code") || query.has("error")) && sessionStorage.getItem(PENDING) !== null;
}

/** Trades the code for tokens; the address bar is cleaned whatever happens. */
export async function finishSignIn(): Promise<Session> {
  const pending = JSON.parse(sessionStorage.getItem(PENDING) ?? "null") as PendingSignIn | null;
  sessionStorage.removeItem(PENDING);
  const current = new URL(location.href);
  // Back to the screen the player was on (a table, when a sign-in ran out mid-game).
  const returnTo = pending && SCREEN_HASH.test(pending.returnTo) ? pending.returnTo : "";
  history.replaceState(null, "", `/${returnTo}`);
  if (pending === null) throw new ApiError("The sign-in had expired: try again.", 0);
  const issuer = new URL(pending.issuer);
  const server = await discover(issuer);
  const client: oauth.Client = { client_id: pending.clientId };
  const params = oauth.validateAuthResponse(server, client, current, pending.state);
  const response = await oauth.authorizationCodeGrantRequest(
    server,
    client,
    oauth.None(),
    params,
    redirectUri(),
    pending.verifier,
    httpOptions(issuer),
  );
  const result = await oauth.processAuthorizationCodeResponse(server, client, response, {
    expectedNonce: pending.nonce,
    requireIdToken: true,
  });
  const playerId = accessTokenSubject(result.access_token) ?? oauth.getValidatedIdTokenClaims(result)?.sub;
  if (!playerId) throw new ApiError("The identity provider named no player.", 0);
  return { token: result.access_token, playerId };
}

/**
 * The player the API acts for: the access token's subject (a JWT, which the gateway verifies). Some
 * providers give the ID token another subject than the access token (Entra's is per application), so
 * the ID token's is only the fallback, for an access token the client cannot read.
 */
function accessTokenSubject(accessToken: string): string | undefined {
  const { sub } = tokenClaims(accessToken);
  return typeof sub === "string" && sub !== "" ? sub : undefined;
}

/** A provider's refusal in words, not a stack. */
export function describeSignInError(error: unknown): string {
  if (error instanceof ApiError) return error.message;
  if (error instanceof oauth.AuthorizationResponseError) {
    return `The identity provider refused the sign-in: ${error.error_description ?? error.error}.`;
  }
  if (error instanceof oauth.ResponseBodyError) {
    return `The identity provider refused the sign-in: ${error.error_description ?? error.error}.`;
  }
  if (error instanceof TypeError) return "The identity provider could not be reached.";
  return "The sign-in could not be completed. Try again.";
}
