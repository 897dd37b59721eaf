import { createServer } from "node:http";
type S = { traceId: string; spanId: string; parentSpanId?: string; name: string; start: number; end: number; service: string; events?: { name: string; timeUnixNano: string }[] };
const spans: S[] = [];
const server = createServer((req, res) => { const chunks: Buffer[] = []; req.on("data", (c) => chunks.push(c)); req.on("end", () => {
  const body = JSON.parse(Buffer.concat(chunks).toString() || "{}");
  for (const rs of body.resourceSpans ?? []) { const service = rs.resource?.attributes?.find((a: any) => a.key === "service.name")?.value?.stringValue;
    for (const ss of rs.scopeSpans ?? []) for (const sp of ss.spans ?? []) spans.push({ traceId: sp.traceId, spanId: sp.spanId, parentSpanId: sp.parentSpanId, name: sp.name, start: Number(BigInt(sp.startTimeUnixNano) / 1000n) / 1000, end: Number(BigInt(sp.endTimeUnixNano) / 1000n) / 1000, service, events: sp.events }); }
  res.writeHead(200, { "content-type": "application/json" }); res.end("{}"); }); });
await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
const port = (server.address() as any).port;
Object.assign(process.env, { OTEL_TRACES_EXPORTER: "otlp", OTEL_EXPORTER_OTLP_PROTOCOL: "http/json", OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${port}`, OTEL_BSP_SCHEDULE_DELAY: "200", OTEL_BSP_MAX_QUEUE_SIZE: "100000" });
const { benchOverload } = await import("./overload.js");
const lines = await benchOverload();
for (const l of lines.slice(0, 5)) console.log(l.name.slice(0, 90), l.value);
await new Promise((r) => setTimeout(r, 1500));
// deals: gateway root spans
const byTrace = new Map<string, S[]>();
for (const s of spans) byTrace.set(s.traceId, [...(byTrace.get(s.traceId) ?? []), s]);
const deals = spans.filter((s) => s.name === "POST /api/deal").sort((a, b) => (b.end - b.start) - (a.end - a.start));
console.log("deal traces", deals.length);
for (const root of deals.slice(0, 12)) {
  const t = byTrace.get(root.traceId)!.sort((a, b) => a.start - b.start);
  console.log(`--- ${(root.end - root.start).toFixed(1)} ms at ${new Date(root.start).toISOString().slice(17, 23)}`);
  for (const s of t) console.log(`   ${s.service.padEnd(18)} ${s.name.padEnd(45)} +${(s.start - root.start).toFixed(1).padStart(6)} dur ${(s.end - s.start).toFixed(1).padStart(6)}${(s.events ?? []).map((e) => ` ${e.name}@+${(Number(BigInt(e.timeUnixNano) / 1000n) / 1000 - root.start).toFixed(1)}`).join("")}`);
}
server.close();
