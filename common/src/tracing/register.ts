// `node --import <this file> main.js`: starts tracing before the entry point's first line, so that
// every span of the process, the first one included, has the SDK behind it. With tracing off this
// loads nothing else (no SDK), so an image may always carry the flag.
import { isMainThread } from "node:worker_threads";
import { tracingEnabled } from "./enabled.js";

// Worker threads inherit --import; the odds service's pool threads only compute, and their work
// is traced from the main thread (the equity span), so they never load the SDK.
if (isMainThread && tracingEnabled()) {
  const { startTracing } = await import("./sdk.js");
  await startTracing();
}
