// One read serving many callers at once, without ever answering from before a caller arrived: a call
// made while a read runs waits for the next read, which starts when the running one ends and serves
// every call that arrived in the meantime. At most one read runs at a time, however many callers.
export class CoalescedRead<T> {
  private running: Promise<T> | undefined;
  private next: Promise<T> | undefined;

  constructor(private readonly read: () => Promise<T>) {}

  get(): Promise<T> {
    if (!this.running) return this.start();
    this.next ??= this.running
      .catch(() => undefined)
      .then(() => {
        this.next = undefined;
        return this.start();
      });
    return this.next;
  }

  private start(): Promise<T> {
    const run = this.read().finally(() => {
      if (this.running === run) this.running = undefined;
    });
    this.running = run;
    return run;
  }
}
