// An OTLP/HTTP collector in the test process: every process of a test stack exports its spans here
// (OTEL_EXPORTER_OTLP_PROTOCOL=http/json, so the body is JSON and needs no protobuf decoder), and
// the test reads them back as flat records, like an in-memory span exporter shared by processes.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

type AnyValue = { stringValue?: string; intValue?: string | number; boolValue?: boolean; doubleValue?: number };
interface KeyValue {
  key: string;
  value: AnyValue;
}

interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes?: KeyValue[];
  links?: { traceId: string; spanId: string }[];
}

interface OtlpTraces {
  resourceSpans?: {
    resource?: { attributes?: KeyValue[] };
    scopeSpans?: { scope?: { name?: string }; spans?: OtlpSpan[] }[];
  }[];
}

/** One span as a test looks at it. */
export interface CollectedSpan {
  service: string;
  /** The tracer that made it ("pokerodds": every span is one of ours). */
  scope: string;
  traceId: string;
  spanId: string;
  /** Empty for a trace's root. */
  parentSpanId: string;
  name: string;
  kind: number;
  attributes: Record<string, string | number | boolean>;
  /** The spans it links to (not its parent), e.g. a caller's traceparent at the gateway. */
  links: { traceId: string; spanId: string }[];
}

export interface OtlpCollector {
  /** For OTEL_EXPORTER_OTLP_ENDPOINT. */
  endpoint: string;
  spans: CollectedSpan[];
  close(): Promise<void>;
}

const valueOf = (value: AnyValue): string | number | boolean =>
  value.stringValue ?? value.boolValue ?? value.doubleValue ?? Number(value.intValue ?? Number.NaN);

const attributesOf = (list: KeyValue[] = []) => Object.fromEntries(list.map(({ key, value }) => [key, valueOf(value)]));

function flatten(body: OtlpTraces): CollectedSpan[] {
  return (body.resourceSpans ?? []).flatMap((resourceSpans) => {
    const service = String(attributesOf(resourceSpans.resource?.attributes)["service.name"] ?? "");
    return (resourceSpans.scopeSpans ?? []).flatMap((scopeSpans) =>
      (scopeSpans.spans ?? []).map((span) => ({
        service,
        scope: scopeSpans.scope?.name ?? "",
        traceId: span.traceId,
        spanId: span.spanId,
        parentSpanId: span.parentSpanId ?? "",
        name: span.name,
        kind: span.kind,
        attributes: attributesOf(span.attributes),
        links: (span.links ?? []).map(({ traceId, spanId }) => ({ traceId, spanId })),
      })),
    );
  });
}

/** Listens on a free loopback port and keeps every span posted to /v1/traces. */
export async function startOtlpCollector(): Promise<OtlpCollector> {
  const spans: CollectedSpan[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      if (request.method === "POST" && request.url === "/v1/traces") {
        spans.push(...flatten(JSON.parse(Buffer.concat(chunks).toString("utf8")) as OtlpTraces));
      }
      response.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    spans,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
