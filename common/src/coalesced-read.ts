// One read serving many callers at once, never answering from more than a given age before a caller
// arrived (by default from before it at all): a call made while a read runs joins it if it began
// within that age, else waits for the next read, which starts when the running one ends and serves
// every such call that arrived in the meantime. At most one read runs at a time, however many callers.
// Shared by the table service's passes over tables and the gateway's calls for the lobby.
export class CoalescedRead<T, Arg = void> {
  private running: { read: Promise<T>; beganAt: number } | undefined;
  private next: Promise<T> | undefined;

  /** `read` is given the `arg` of the call that starts it (the first to wait, for a next read). */
  constructor(private readonly read: (arg: Arg) => Promise<T>) {}

  /** A read that began at most `maxAgeMs` before this call (on the monotonic clock), or after it. */
  get(maxAgeMs = 0, arg?: Arg): Promise<T> {
    if (!this.running) return this.start(arg as Arg);
    if (maxAgeMs > 0 && performance.now() - this.running.beganAt <= maxAgeMs) return this.running.read;
    this.next ??= this.running.read
      .catch(() => undefined)
      .then(() => {
        this.next = undefined;
        return this.start(arg as Arg);
      });
    return this.next;
  }

  private start(arg: Arg): Promise<T> {
    const read = this.read(arg).finally(() => {
      if (this.running?.read === read) this.running = undefined;
    });
    this.running = { read, beganAt: performance.now() };
    return read;
  }
}
