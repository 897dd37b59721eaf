/**
 * Waiters that are all woken at once: each waits for the next wake(), or until its signal aborts.
 * A feed of versions (the table service's per replica, the gateway's per table) wakes its readers
 * with it when its head moves.
 */
export class WakeList {
  private readonly waiting = new Set<() => void>();

  /** Resolves at the next wake(); rejects with the signal's reason when it aborts first. */
  wait(signal: AbortSignal): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const woken = () => {
        signal.removeEventListener("abort", aborted);
        resolve();
      };
      const aborted = () => {
        this.waiting.delete(woken);
        reject(signal.reason as Error);
      };
      if (signal.aborted) return aborted();
      this.waiting.add(woken);
      signal.addEventListener("abort", aborted, { once: true });
    });
  }

  wake(): void {
    const waiting = [...this.waiting];
    this.waiting.clear();
    for (const woken of waiting) woken();
  }
}
