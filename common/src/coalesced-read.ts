// One read serving many callers at once, per key, without ever answering from before a caller
// arrived: a call made while its key's read runs waits for the next read of that key, which starts
// when the running one ends and serves every call that arrived in the meantime. At most one read of
// a key runs at a time, however many callers; a key's state is dropped once its reads are done, so
// keys (a table, an account) never pile up.

interface KeyReads<T> {
  running: Promise<T>;
  next?: Promise<T>;
}

const ignore = () => undefined;

export class CoalescedReads<K, T> {
  private readonly reads = new Map<K, KeyReads<T>>();

  constructor(private readonly read: (key: K) => Promise<T>) {}

  get(key: K): Promise<T> {
    const current = this.reads.get(key);
    if (!current) return this.start(key);
    current.next ??= current.running.then(ignore, ignore).then(() => this.start(key));
    return current.next;
  }

  private start(key: K): Promise<T> {
    const reads: KeyReads<T> = { running: this.read(key) };
    this.reads.set(key, reads);
    // Runs before a next read's start (registered first): it keeps the state while one is waiting.
    void reads.running.then(ignore, ignore).then(() => {
      if (this.reads.get(key) === reads && !reads.next) this.reads.delete(key);
    });
    return reads.running;
  }

  /** Keys with a read running or waiting (for tests: none is kept once its reads are done). */
  get size(): number {
    return this.reads.size;
  }
}
