// Test-only fault injection: TABLE_CRASH_POINT names a point where the process kills itself with
// SIGKILL, as a crash would, so integration tests can show recovery completing the interrupted
// work exactly once. Unset (always, outside those tests) it does nothing.
const armed = process.env.TABLE_CRASH_POINT;

export type CrashPoint =
  "sit:after-debit" | "sit:after-credit" | "topup:after-debit" | "topup:after-credit" | "leave:after-apply";

export function crashPoint(name: CrashPoint): void {
  if (armed === name) process.kill(process.pid, "SIGKILL");
}
