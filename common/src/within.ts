// Waiting for work at most so long: the shutdowns' grace (the gRPC servers', the launcher's children),
// a health probe's deadline, the last spans' flush. The work itself runs on; only the wait ends.

/** What `within` gives when the work has not settled in time. */
export const TIMED_OUT = Symbol("timed out");

/** `work`'s value, or TIMED_OUT when it has not settled within `ms`; rejects as `work` does. */
export async function within<T>(work: Promise<T>, ms: number): Promise<T | typeof TIMED_OUT> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<typeof TIMED_OUT>((resolve) => (timer = setTimeout(() => resolve(TIMED_OUT), ms)));
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}
