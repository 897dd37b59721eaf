// The route template on the HTTP server span ("GET /api/tables/:tableId/state", http.route), set by
// our own route mounting instead of the Express instrumentation: that one wraps every layer of every
// request and adds a "request handler" span that says nothing the server span does not.
import { getRPCMetadata, RPCType } from "@opentelemetry/core";
import { context } from "@opentelemetry/api";

/**
 * Names the current request's server span after `route` (the HTTP instrumentation reads it when the
 * response ends). With tracing off there is no such span and this does nothing.
 */
export function setHttpRoute(route: string): void {
  const metadata = getRPCMetadata(context.active());
  if (metadata?.type === RPCType.HTTP) metadata.route = route;
}
