// GET /api/openapi.json: the contract's document (@pokerodds/api/document), built and serialized once.
import { openApiDocument, type openApiPart } from "@pokerodds/api/document";
import type { Handlers } from "../http/mount.js";

export function openApiRoutes(): Handlers<typeof openApiPart> {
  // One buffer for every answer (104 KB): an answer waiting on a client that reads slowly holds no copy.
  const body = Buffer.from(JSON.stringify(openApiDocument()));
  return { getOpenApi: (_req, res) => void res.type("application/json; charset=utf-8").send(body) };
}
