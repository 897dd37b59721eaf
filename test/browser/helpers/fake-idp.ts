// A minimal OpenID Connect provider on 127.0.0.1 for the browser tests: discovery, JWKS, an
// authorization endpoint that signs one fixed player in at once (no login form), and a token
// endpoint (on an origin of its own, as some providers have it) that checks the PKCE verifier and
// issues an ID token and a JWT access token for the API.
// Only what the authorization code flow with PKCE of a public client needs.
import { createHash, randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { exportJWK, generateKeyPair, SignJWT, type JWK } from "jose";

interface FakeIdp {
  issuer: string;
  jwksUrl: string;
  clientId: string;
  audience: string;
  /** Every authorization request's query, in order: what the client sent. */
  authorizations: URLSearchParams[];
  /** How long the tokens it issues from now on last (10 minutes unless a test sets it). */
  tokenSeconds: number;
  close(): Promise<void>;
}

interface Grant {
  challenge: string;
  nonce: string | null;
  redirectUri: string;
}

/** `idTokenSub`: the ID token's subject, when the provider gives it another one than the access token's. */
export async function startFakeIdp(subject: {
  sub: string;
  email: string;
  name: string;
  idTokenSub?: string;
}): Promise<FakeIdp> {
  const { privateKey, publicKey } = await generateKeyPair("ES256");
  const jwk: JWK = { ...(await exportJWK(publicKey)), kid: "test-key", alg: "ES256", use: "sig" };
  const grants = new Map<string, Grant>();
  const authorizations: URLSearchParams[] = [];
  const clientId = "pokerodds-web";
  const audience = "pokerodds-api";
  let issuer = "";
  /** On another origin than the issuer, as some providers have it (Google's is oauth2.googleapis.com). */
  let tokenEndpoint = "";

  const idp = { tokenSeconds: 600 } as FakeIdp;
  const sign = (claims: Record<string, unknown>, aud: string, sub = subject.sub) => {
    const now = Math.floor(Date.now() / 1000); // one reading: exp - iat is exactly tokenSeconds
    return new SignJWT(claims)
      .setProtectedHeader({ alg: "ES256", kid: jwk.kid! })
      .setIssuer(issuer)
      .setSubject(sub)
      .setAudience(aud)
      .setIssuedAt(now)
      .setExpirationTime(now + idp.tokenSeconds)
      .sign(privateKey);
  };

  const routes: Record<string, (req: IncomingMessage, url: URL, res: ServerResponse) => Promise<void> | void> = {
    "/idp/.well-known/openid-configuration": (_req, _url, res) =>
      json(res, 200, {
        issuer,
        authorization_endpoint: `${issuer}/authorize`,
        token_endpoint: tokenEndpoint,
        jwks_uri: `${issuer}/jwks`,
        response_types_supported: ["code"],
        subject_types_supported: ["public"],
        id_token_signing_alg_values_supported: ["ES256"],
        code_challenge_methods_supported: ["S256"],
        token_endpoint_auth_methods_supported: ["none"],
      }),
    "/idp/jwks": (_req, _url, res) => json(res, 200, { keys: [jwk] }),
    "/idp/authorize": (_req, url, res) => {
      const query = url.searchParams;
      authorizations.push(query);
      const redirectUri = query.get("redirect_uri") ?? "";
      const challenge = query.get("code_challenge");
      if (query.get("client_id") !== clientId || !redirectUri || !challenge)
        return json(res, 400, { error: "invalid_request" });
      if (query.get("code_challenge_method") !== "S256") return json(res, 400, { error: "invalid_request" });
      const code = randomBytes(16).toString("hex");
      grants.set(code, { challenge, nonce: query.get("nonce"), redirectUri });
      const back = new URL(redirectUri);
      back.search = new URLSearchParams({ code, state: query.get("state") ?? "" }).toString();
      res.writeHead(302, { location: back.href }).end();
    },
    "/idp/token": async (req, _url, res) => {
      const form = new URLSearchParams(await bodyOf(req));
      const grant = grants.get(form.get("code") ?? "");
      grants.delete(form.get("code") ?? "");
      const verifier = form.get("code_verifier") ?? "";
      const challenge = createHash("sha256").update(verifier).digest("base64url");
      if (!grant || grant.challenge !== challenge || grant.redirectUri !== form.get("redirect_uri")) {
        return json(res, 400, { error: "invalid_grant", error_description: "code, verifier or redirect_uri mismatch" });
      }
      if (form.get("grant_type") !== "authorization_code" || form.get("client_id") !== clientId) {
        return json(res, 400, { error: "invalid_client" });
      }
      json(res, 200, {
        token_type: "Bearer",
        expires_in: 600,
        scope: "openid email profile",
        access_token: await sign({ email: subject.email, name: subject.name }, audience),
        id_token: await sign(
          { ...(grant.nonce ? { nonce: grant.nonce } : {}), email: subject.email },
          clientId,
          subject.idTokenSub,
        ),
      });
    },
  };

  const handle = (req: IncomingMessage, res: ServerResponse) => {
    // The client runs on the gateway's origin: discovery and the token request are cross-origin.
    res.setHeader("Access-Control-Allow-Origin", "*");
    res.setHeader("Access-Control-Allow-Headers", "*");
    if (req.method === "OPTIONS") return void res.writeHead(204).end();
    const url = new URL(req.url ?? "/", issuer);
    const route = routes[url.pathname];
    if (!route) return json(res, 404, { error: "not_found" });
    Promise.resolve(route(req, url, res)).catch((error: unknown) => json(res, 500, { error: String(error) }));
  };
  const [server, tokenServer] = [createServer(handle), createServer(handle)];
  const listening = (on: Server) =>
    new Promise<number>((resolve) => on.listen(0, "127.0.0.1", () => resolve((on.address() as AddressInfo).port)));
  issuer = `http://127.0.0.1:${await listening(server)}/idp`;
  tokenEndpoint = `http://127.0.0.1:${await listening(tokenServer)}/idp/token`;
  Object.assign(idp, {
    issuer,
    jwksUrl: `${issuer}/jwks`,
    clientId,
    audience,
    authorizations,
    close: async () => {
      await Promise.all([server, tokenServer].map((on) => new Promise<void>((resolve) => on.close(() => resolve()))));
    },
  });
  return idp;
}

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "content-type": "application/json", "cache-control": "no-store" }).end(JSON.stringify(body));
}

async function bodyOf(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}
