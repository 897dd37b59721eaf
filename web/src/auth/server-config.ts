// How players sign in (GET /api/client-config, in the OpenAPI document) and, only while the
// development issuer is active, a development token (POST /api/dev/token: a development aid kept out
// of the document, a 404 otherwise).
import { ApiError, api, describe, errorMessage, unwrap, type Schemas } from "../api/client";

export type ClientConfig = Schemas["ClientConfig"];

/** The roles a token may carry (its `role` claim). */
export type DevRole = Exclude<Schemas["PlayerProfile"]["role"], "UNSPECIFIED_DUE_TO_ERROR">;

export function loadClientConfig(): Promise<ClientConfig> {
  return unwrap(api.GET("/api/client-config"));
}

export async function devToken(playerId: string, role: DevRole): Promise<string> {
  let response: Response;
  try {
    response = await fetch("/api/dev/token", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ playerId, role }),
    });
  } catch (error) {
    throw new ApiError(describe(error), 0);
  }
  const body = (await response.json().catch(() => undefined)) as { token?: unknown; error?: unknown } | undefined;
  if (!response.ok) throw new ApiError(errorMessage(response.status, body), response.status);
  if (typeof body?.token !== "string") throw new ApiError("The server sent no token.", response.status);
  return body.token;
}
