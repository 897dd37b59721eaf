// Whether this process traces: decided from the standard OTEL_* variables alone, so that the
// launcher, the images and the register module agree without any variable of our own.

/**
 * Tracing is off unless asked for: by OTEL_TRACES_EXPORTER (anything but "none") or by an OTLP
 * endpoint. OTEL_SDK_DISABLED=true wins over both. (The OpenTelemetry default would be "otlp to
 * localhost", which would make every process that has no collector try to send to one.)
 */
export function tracingEnabled(env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === "true") return false;
  const exporters = (env.OTEL_TRACES_EXPORTER ?? "")
    .split(",")
    .map((name) => name.trim())
    .filter(Boolean);
  if (exporters.length > 0) return !exporters.every((name) => name === "none");
  return Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT);
}

/** The module a process must `--import` before its entry point for tracing (see register.ts). */
export const TRACING_REGISTER_MODULE = new URL("./register.js", import.meta.url);
