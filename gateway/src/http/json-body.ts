import express, { type RequestHandler } from "express";
import { HttpError } from "./http-error.js";

export const BODY_LIMIT_BYTES = 64 * 1024;

const parseJson = express.json({ limit: BODY_LIMIT_BYTES, strict: false, type: () => true });

/**
 * Parses an optional JSON body. No body (or an empty one) leaves req.body undefined; a body that is
 * not declared as JSON is a 415; anything JSON.parse accepts reaches the schema, which then names
 * the fault (an array or null is "must be a JSON object", not "invalid JSON").
 */
export const optionalJsonBody: RequestHandler = (req, res, next) => {
  const length = req.headers["content-length"];
  const hasBody = req.headers["transfer-encoding"] !== undefined || (length !== undefined && length !== "0");
  if (!hasBody) {
    req.body = undefined;
    return next();
  }
  if (!req.is(["application/json", "application/*+json"])) {
    return next(new HttpError(415, "request body must be JSON (Content-Type: application/json)"));
  }
  parseJson(req, res, next);
};
