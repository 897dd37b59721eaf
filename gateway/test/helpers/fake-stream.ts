// A backend's server stream as the gateway sees it (common's ServerStream), answered by the test: it
// is accepted by the first item sent or by end(), refused or broken by fail(), and ends with a
// CANCELLED error when the gateway aborts the call.
import { Metadata, status, type ServiceError } from "@grpc/grpc-js";
import { DOMAIN_ERROR_KEY, type ServerStream, type ServerStreamCallOptions } from "@pokerodds/common";

/** Statuses only a service's domain errors make (but for its access check, which the tests name). */
const DOMAIN_STATUSES = new Set<status>([
  status.INVALID_ARGUMENT,
  status.NOT_FOUND,
  status.PERMISSION_DENIED,
  status.FAILED_PRECONDITION,
  status.ALREADY_EXISTS,
]);

/**
 * A failed call as grpc-js reports it. `madeBy`: "domain" marks it as a service's domain error
 * would (common/src/grpc/status.ts), as the services do for the statuses only their domain errors make.
 */
export function serviceError(
  code: status,
  details: string,
  madeBy: "domain" | "library" = DOMAIN_STATUSES.has(code) ? "domain" : "library",
): ServiceError {
  const metadata = new Metadata();
  if (madeBy === "domain") metadata.set(DOMAIN_ERROR_KEY, "1");
  return Object.assign(new Error(`${code} ${details}`), { code, details, metadata }) as ServiceError;
}

export class FakeServerStream<Request, Item> implements ServerStream<Item> {
  readonly accepted: Promise<void>;
  private accept!: () => void;
  private refuse!: (error: Error) => void;
  private readonly queue: Item[] = [];
  private outcome: { error?: ServiceError } | undefined;
  private wake = () => {};

  constructor(
    readonly request: Request,
    readonly options: ServerStreamCallOptions,
  ) {
    this.accepted = new Promise<void>((resolve, reject) => {
      this.accept = resolve;
      this.refuse = reject;
    });
    this.accepted.catch(() => {});
    options.signal?.addEventListener("abort", () => this.fail(status.CANCELLED, "Cancelled on client"));
  }

  get cancelled(): boolean {
    return this.options.signal?.aborted ?? false;
  }

  /** Accepts the call without sending anything yet. */
  open(): this {
    this.accept();
    return this;
  }

  send(...items: Item[]): this {
    this.accept();
    this.queue.push(...items);
    this.wake();
    return this;
  }

  /** Refuses the call, or breaks it after what was sent. */
  fail(code: status, details = "test failure"): this {
    const error = serviceError(code, details);
    this.outcome ??= { error };
    this.refuse(error);
    this.wake();
    return this;
  }

  end(): this {
    this.outcome ??= {};
    this.accept();
    this.wake();
    return this;
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<Item> {
    for (;;) {
      const next = this.queue.shift();
      if (next !== undefined) yield next;
      else if (this.outcome?.error) throw this.outcome.error;
      else if (this.outcome) return;
      else await new Promise<void>((resolve) => (this.wake = resolve));
    }
  }
}
