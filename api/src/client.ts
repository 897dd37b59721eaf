// What the web client served at `/` needs before it can sign a player in: how to sign in (its
// config), and the development sign-in that exists only while the local development issuer does.
import { Type, type Static } from "@sinclair/typebox";
import { MUST_BE, playerId } from "./fields.js";
import { apiPart } from "./operation.js";
import { ROLES } from "./players.js";

export const ClientConfig = Type.Object(
  {
    devSignIn: Type.Boolean({ description: "POST /api/dev/token is offered (the local development issuer is on)" }),
    oidc: Type.Optional(
      Type.Object(
        {
          issuer: Type.String({ description: "The identity provider; the client signs in with code + PKCE" }),
          clientId: Type.String(),
          audience: Type.String({
            description:
              "The API's audience (the aud its access tokens must carry), sent with the sign-in request: a provider that issues access tokens for several APIs (Auth0) needs it to issue a verifiable one",
          }),
        },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);

export type ClientConfigBody = Static<typeof ClientConfig>;

export const clientApi = apiPart(
  "meta",
  { ClientConfig },
  {
    getClientConfig: {
      method: "get",
      path: "/api/client-config",
      summary: "How the web client signs players in",
      isPublic: true,
      ok: "ClientConfig",
      example: {
        ok: {
          devSignIn: false,
          oidc: { issuer: "https://id.example.com/", clientId: "pokerodds-web", audience: "pokerodds-api" },
        },
      },
    },
  },
);

export const DevTokenRequest = Type.Object(
  {
    playerId: playerId("The token's subject"),
    role: Type.Optional(
      Type.Union(
        ROLES.map((role) => Type.Literal(role)),
        { [MUST_BE]: `one of ${ROLES.join(", ")}` },
      ),
    ),
  },
  { additionalProperties: false },
);

const DevToken = Type.Object({ token: Type.String() }, { additionalProperties: false });

/**
 * Not in the OpenAPI document: a development aid, mounted only while the development issuer is on
 * (a 404 otherwise) and only for this machine's own addresses.
 */
export const devSignInApi = apiPart(
  "meta",
  { DevTokenRequest, DevToken },
  {
    devSignIn: {
      method: "post",
      path: "/api/dev/token",
      summary: "A one-hour token of the local development issuer",
      isPublic: true,
      body: { schema: "DevTokenRequest", required: true },
      ok: "DevToken",
      errors: [403],
      example: { body: { playerId: "alice", role: "BASIC_USER" }, ok: { token: "eyJhbGciOiJFUzI1NiJ9..." } },
    },
  },
);
