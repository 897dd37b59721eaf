// GET /api/openapi.json: the contract's document (@pokerodds/api/document), built once.
import { openApiDocument, type openApiPart } from "@pokerodds/api/document";
import type { Handlers } from "../http/mount.js";

export function openApiRoutes(): Handlers<typeof openApiPart> {
  const document = openApiDocument();
  return { getOpenApi: (_req, res) => void res.json(document) };
}
