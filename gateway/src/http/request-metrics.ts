import { httpHandled } from "@pokerodds/common";
import type { RequestHandler } from "express";

/**
 * Times every request by its route pattern (never the raw URL: ids in paths would make a series
 * per table and player), labelled "unmatched" when no route took it.
 */
export const requestMetrics: RequestHandler = (req, res, next) => {
  const stop = httpHandled.startTimer({ method: req.method });
  res.once("finish", () => {
    const route = req.route ? `${req.baseUrl}${String(req.route.path)}` : "unmatched";
    stop({ route, status: String(res.statusCode) });
  });
  next();
};
