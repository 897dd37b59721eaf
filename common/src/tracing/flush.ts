// How a process hands its last spans over before it exits, without importing the SDK: the SDK
// registers its shutdown here when tracing starts; with tracing off there is nothing to flush.
import { within } from "../within.js";

let flusher: (() => Promise<void>) | undefined;

/** Called once by the SDK's start-up (sdk.ts). */
export function setTracingFlush(flush: () => Promise<void>): void {
  flusher = flush;
}

/** The longest a process waits for its last spans to go out. */
const FLUSH_TIMEOUT_MS = 2000;

/** Exports the spans still batched and stops tracing; never rejects, and waits at most FLUSH_TIMEOUT_MS. */
export async function flushTracing(): Promise<void> {
  const flush = flusher;
  if (!flush) return;
  flusher = undefined;
  await within(
    flush().catch(() => {}),
    FLUSH_TIMEOUT_MS,
  );
}
