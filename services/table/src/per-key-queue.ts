/**
 * Runs tasks with the same key one after another, tasks with different keys concurrently. Only a
 * performance measure: a replica's own writes to one table then do not race each other for the
 * next version. Correctness never depends on it; other replicas still race, and the snapshot
 * archive's unique indexes settle that. (The wallet has the same class; it could move to common.)
 */
export class PerKeyQueue {
  private readonly tails = new Map<string, Promise<void>>();

  run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const result = (this.tails.get(key) ?? Promise.resolve()).then(task);
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
