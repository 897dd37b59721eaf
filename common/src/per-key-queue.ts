/**
 * Runs tasks with the same key one after another, tasks with different keys concurrently. Only a
 * performance measure: a replica's own writes to one account or table then do not race each other
 * for the next sequence or version (a lost race costs a retry). Correctness never depends on it:
 * other replicas still race, and the database's unique indexes settle that.
 */
export class PerKeyQueue {
  /** The last task queued per key, settled or not; removed once the queue runs empty. */
  private readonly tails = new Map<string, Promise<void>>();

  /**
   * Runs `task` after the key's earlier ones; not at all if `signal` has aborted by its turn (its
   * caller gave up while it waited: the promise rejects with the signal's reason).
   */
  run<T>(key: string, task: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    const result = (this.tails.get(key) ?? Promise.resolve()).then(() => {
      signal?.throwIfAborted();
      return task();
    });
    const tail = result.then(
      () => undefined,
      () => undefined,
    );
    this.tails.set(key, tail);
    void tail.then(() => {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    });
    return result;
  }
}
