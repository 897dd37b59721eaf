// `node --import <this file> main.js`: starts tracing before the entry point's imports are loaded,
// which is the only way the ES module loader hook can patch them. With tracing off this loads
// nothing else: no SDK, no loader hook, so an image may always carry the flag.
import { isMainThread } from "node:worker_threads";
import { tracingEnabled } from "./enabled.js";

// Worker threads inherit --import; the odds service's pool threads only compute, and their work
// is traced from the main thread (the equity span), so they never load the SDK.
if (isMainThread && tracingEnabled()) {
  const { startTracing } = await import("./sdk.js");
  await startTracing();
}
