// Connections each client address holds open to one listening server, counted as they arrive, so
// that one client (or one host) cannot take every socket a process can hold. The gRPC listeners, the
// gateway's API server and every metrics server count this way.
import type { Socket } from "node:net";

export class ConnectionsPerAddress {
  private readonly open = new Map<string, number>();

  /**
   * max: connections one address may hold (0: no cap). keyOf groups addresses into one client (the
   * gateway counts an IPv6 address by its /56); by default each address is its own.
   */
  constructor(
    private readonly max: number,
    private readonly keyOf: (address: string) => string = (address) => address,
  ) {}

  /**
   * Counts `socket` against its address until it closes, and says true; or, when the address holds
   * `max` already (or the socket was reset before it could be read), counts nothing and says false:
   * the caller closes it.
   */
  admit(socket: Socket): boolean {
    if (socket.remoteAddress === undefined) return false;
    const key = this.keyOf(socket.remoteAddress);
    const count = this.open.get(key) ?? 0;
    if (this.max > 0 && count >= this.max) return false;
    this.open.set(key, count + 1);
    socket.once("close", () => {
      const left = this.open.get(key)! - 1;
      if (left === 0) this.open.delete(key);
      else this.open.set(key, left);
    });
    return true;
  }
}
