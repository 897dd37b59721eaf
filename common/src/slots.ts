// Requests or streams held at once, in all and per key (a player, a client address; 0: no limit).
// The gateway's heavy routes and event streams, and every gRPC server's streams per client address
// (grpc/stream.ts), count this way.

export class Slots {
  private total = 0;
  private readonly perKey = new Map<string, number>();

  constructor(
    private readonly max: number,
    private readonly maxPerKey: number,
  ) {}

  /** The slot's release (safe to call twice), or which limit is full. */
  take(key: string): (() => void) | "all full" | "key full" {
    const held = this.perKey.get(key) ?? 0;
    if (this.max > 0 && this.total >= this.max) return "all full";
    if (this.maxPerKey > 0 && held >= this.maxPerKey) return "key full";
    this.total++;
    this.perKey.set(key, held + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.total--;
      const left = (this.perKey.get(key) ?? 1) - 1;
      if (left === 0) this.perKey.delete(key);
      else this.perKey.set(key, left);
    };
  }
}
