// Raw TCP connections to a local server, for tests of what it does with connections that say little
// or nothing: its connection caps, its handshake and header timeouts, its half-sent requests.
import { TIMED_OUT, within } from "@pokerodds/common/within";
import { connect, type Socket } from "node:net";

/**
 * A connection to `port` on 127.0.0.1 from the loopback address `from`, once it has connected, with
 * `first` written to it. What the server sends is read and dropped, and an error (the server cutting
 * it) only closes it.
 */
export async function rawConnection(
  port: number,
  { from = "127.0.0.1", first }: { from?: string; first?: string | Buffer } = {},
): Promise<Socket> {
  const socket = connect({ port, host: "127.0.0.1", localAddress: from });
  socket.on("error", () => {});
  socket.resume();
  await new Promise<void>((resolve, reject) => socket.once("connect", resolve).once("error", reject));
  if (first) socket.write(first);
  return socket;
}

/** Resolves once `socket` is closed (at once when it is already). */
export const socketClosed = (socket: Socket): Promise<void> =>
  socket.destroyed ? Promise.resolve() : new Promise((resolve) => socket.once("close", () => resolve()));

/** Whether `socket` is closed within `ms` (a connection refused at a cap is closed on arrival). */
export async function closedWithin(socket: Socket, ms: number): Promise<boolean> {
  return (await within(socketClosed(socket), ms)) !== TIMED_OUT;
}
