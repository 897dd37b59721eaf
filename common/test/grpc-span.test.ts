// The spans common's gRPC wrappers start with tracing on: a client span in the caller, a server span
// in the callee that continues it (W3C trace context in the metadata), both named and described by
// the RPC conventions; a refusal (a domain error) fails the client's span but not the server's, a
// fault fails both. An in-memory exporter collects them; the whole-stack trace test follows the same
// spans across real processes.
import { Server, ServerCredentials, status, type ServiceError } from "@grpc/grpc-js";
import { context, propagation, SpanKind, SpanStatusCode, trace } from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { W3CTraceContextPropagator } from "@opentelemetry/core";
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import test from "ava";
import { NotFoundError } from "../src/errors.js";
import {
  TableServiceClient,
  TableServiceService,
  type GetStateRequest,
  type GetStateResponse,
} from "../src/generated/pokerodds/table/v1/table.js";
import { createLogger } from "../src/logger.js";

// grpc-span.ts decides once, when loaded, whether this process traces.
process.env.OTEL_TRACES_EXPORTER = "console";
const { createClient } = await import("../src/grpc/client.js");
const { unary } = await import("../src/grpc/handler.js");

const exporter = new InMemorySpanExporter();
trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }));
propagation.setGlobalPropagator(new W3CTraceContextPropagator());
context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());

const logger = createLogger("span-test");
logger.level = "silent";

async function serve(handler: (request: GetStateRequest) => Promise<GetStateResponse>) {
  const server = new Server();
  server.addService(TableServiceService, { getState: unary(logger, "GetState", handler) });
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync("127.0.0.1:0", ServerCredentials.createInsecure(), (error, bound) =>
      error ? reject(error) : resolve(bound),
    ),
  );
  const client = createClient(TableServiceClient, ["getState"], `127.0.0.1:${port}`, { defaultDeadlineMs: 5_000 });
  return { client: client.call, stop: () => (client.raw.close(), server.forceShutdown()) };
}

const PATH = "grpc.pokerodds.table.v1.TableService/GetState";

/** The client and server spans of the one call made since the exporter was reset. */
function callSpans() {
  const spans = exporter.getFinishedSpans().filter((span) => span.name === PATH);
  const client = spans.find((span) => span.kind === SpanKind.CLIENT);
  const server = spans.find((span) => span.kind === SpanKind.SERVER);
  if (!client || !server) throw new Error(`expected a client and a server span, got ${spans.length}`);
  return { client, server };
}

test.serial(
  "a call is a client span and, continuing it, a server span; the handler runs inside the latter",
  async (t) => {
    exporter.reset();
    let activeInHandler: string | undefined;
    const { client, stop } = await serve(async () => {
      activeInHandler = trace.getActiveSpan()?.spanContext().spanId;
      return { state: undefined, version: 1 };
    });
    try {
      await client.getState({ tableId: 1 });
    } finally {
      stop();
    }
    const spans = callSpans();
    t.is(spans.server.spanContext().traceId, spans.client.spanContext().traceId);
    t.is(spans.server.parentSpanContext?.spanId, spans.client.spanContext().spanId);
    t.is(activeInHandler, spans.server.spanContext().spanId);
    for (const span of [spans.client, spans.server]) {
      t.like(span.attributes, {
        "rpc.system": "grpc",
        "rpc.service": "pokerodds.table.v1.TableService",
        "rpc.method": "GetState",
        "rpc.grpc.status_code": status.OK,
      });
      t.is(span.status.code, SpanStatusCode.UNSET);
    }
  },
);

test.serial("a refusal fails the client's span only; a fault fails both", async (t) => {
  for (const [error, code, serverStatus] of [
    [new NotFoundError("no such table"), status.NOT_FOUND, SpanStatusCode.UNSET],
    [new Error("boom"), status.INTERNAL, SpanStatusCode.ERROR],
  ] as const) {
    exporter.reset();
    const { client, stop } = await serve(() => Promise.reject(error));
    try {
      const refused = await t.throwsAsync<ServiceError>(client.getState({ tableId: 1 }));
      t.is(refused?.code, code);
    } finally {
      stop();
    }
    const spans = callSpans();
    t.is(spans.client.status.code, SpanStatusCode.ERROR);
    t.is(spans.server.status.code, serverStatus, error.message);
    t.is(spans.server.attributes["rpc.grpc.status_code"], code);
  }
});
