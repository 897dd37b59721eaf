import { BusyError } from "./errors.js";

/**
 * Runs one task at a time and refuses any other while it runs (BusyError: RESOURCE_EXHAUSTED, HTTP
 * 429), for work that reads a whole collection (the audits): callers never stack such reads up.
 */
export class OneAtATime {
  private running = false;

  constructor(private readonly busyMessage: string) {}

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.running) throw new BusyError(this.busyMessage);
    this.running = true;
    try {
      return await task();
    } finally {
      this.running = false;
    }
  }
}
