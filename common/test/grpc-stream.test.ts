// Server-streaming calls through common's two ends: the handler's errors become statuses (domain
// errors their own, anything else a hidden INTERNAL), a refusal before `accept` reaches the client
// before any "accepted", cancelling reaches the handler, a closing server ends its streams
// UNAVAILABLE, an address at its cap of open streams is refused RESOURCE_EXHAUSTED before its handler
// runs, and the client never loses the final status, even when it reads late.
import { Server, ServerCredentials, status, type ServiceError } from "@grpc/grpc-js";
import test from "ava";
import { setTimeout as sleep } from "node:timers/promises";
import { NotFoundError } from "../src/errors.js";
import { Slots } from "../src/slots.js";
import {
  TableServiceClient,
  TableServiceService,
  TableState,
  type WatchTableRequest,
  type WatchTableResponse,
} from "../src/generated/pokerodds/table/v1/table.js";
import { createClient } from "../src/grpc/client.js";
import { openServerStream, serverStreaming, type ServerStreamHandler } from "../src/grpc/stream.js";
import { createLogger } from "../src/logger.js";

const logger = createLogger("stream-test");
logger.level = "silent";

type Handler = ServerStreamHandler<WatchTableRequest, WatchTableResponse>;

async function serve(handler: Handler, options: { closing?: AbortSignal; perAddress?: Slots } = {}) {
  const server = new Server();
  server.addService(TableServiceService, { watchTable: serverStreaming(logger, "WatchTable", handler, options) });
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync("127.0.0.1:0", ServerCredentials.createInsecure(), (error, bound) =>
      error ? reject(error) : resolve(bound),
    ),
  );
  const client = createClient(TableServiceClient, [], `127.0.0.1:${port}`, { defaultDeadlineMs: 5_000 });
  const watch = (afterVersion = 0, signal?: AbortSignal) =>
    openServerStream(
      TableServiceClient.service.watchTable.path,
      (metadata) => client.raw.watchTable({ tableId: 1, afterVersion, recentVersions: 0 }, metadata),
      { signal },
    );
  return {
    watch,
    stop: () => {
      client.raw.close();
      server.forceShutdown();
    },
  };
}

const event = (version: number): WatchTableResponse => ({ version, latestVersion: version });

async function readAll<T>(stream: AsyncIterable<T>): Promise<T[]> {
  const seen: T[] = [];
  for await (const message of stream) seen.push(message);
  return seen;
}

test("every message in order, then the end; the request arrives as sent", async (t) => {
  const server = await serve(async (request, context, send) => {
    context.accept();
    for (let v = request.afterVersion + 1; v <= request.afterVersion + 50; v++) await send(event(v));
  });
  try {
    const stream = server.watch(7);
    await t.notThrowsAsync(stream.accepted);
    const versions = (await readAll(stream)).map((e) => e.version);
    t.deepEqual(
      versions,
      Array.from({ length: 50 }, (_, i) => 8 + i),
    );
  } finally {
    server.stop();
  }
});

test("a domain refusal before accept: `accepted` rejects with its status and message, nothing else arrives", async (t) => {
  const server = await serve(async () => {
    throw new NotFoundError("no table 1");
  });
  try {
    const stream = server.watch();
    const error = await t.throwsAsync<ServiceError>(stream.accepted);
    t.is(error?.code, status.NOT_FOUND);
    t.is(error?.details, "no table 1");
    // A late reader still gets the status, not a quiet end.
    await t.throwsAsync(readAll(stream), { message: /no table 1/ });
  } finally {
    server.stop();
  }
});

test("an unexpected failure is INTERNAL without its message; after accept too", async (t) => {
  const server = await serve(async (_request, context, send) => {
    context.accept();
    await send(event(1));
    throw new Error("secret detail");
  });
  try {
    const stream = server.watch();
    await t.notThrowsAsync(stream.accepted);
    const seen: number[] = [];
    const error = await t.throwsAsync<ServiceError>(async () => {
      for await (const message of stream) seen.push(message.version);
    });
    t.deepEqual(seen, [1]);
    t.is(error?.code, status.INTERNAL);
    t.false(error?.details.includes("secret"));
  } finally {
    server.stop();
  }
});

test("accept lets the client know before any message; cancelling reaches the handler's signal", async (t) => {
  let aborted: (() => void) | undefined;
  const handlerAborted = new Promise<void>((resolve) => (aborted = resolve));
  const server = await serve(async (_request, context) => {
    context.accept();
    await new Promise<void>((_resolve, reject) =>
      context.signal.addEventListener("abort", () => {
        aborted!();
        reject(context.signal.reason as Error);
      }),
    );
  });
  try {
    const cancel = new AbortController();
    const stream = server.watch(0, cancel.signal);
    await t.notThrowsAsync(stream.accepted);
    cancel.abort();
    await handlerAborted;
    const error = await t.throwsAsync<ServiceError>(readAll(stream));
    t.is(error?.code, status.CANCELLED);
  } finally {
    server.stop();
  }
});

test("a closing server ends its open streams UNAVAILABLE and refuses new ones the same way", async (t) => {
  const closing = new AbortController();
  const server = await serve(
    async (_request, context, send) => {
      context.accept();
      await send(event(1));
      await new Promise<void>((_resolve, reject) =>
        context.signal.addEventListener("abort", () => reject(context.signal.reason as Error)),
      );
    },
    { closing: closing.signal },
  );
  try {
    const open = server.watch();
    const first = await open[Symbol.asyncIterator]().next();
    t.is(first.value?.version, 1);
    closing.abort();
    const error = await t.throwsAsync<ServiceError>(readAll(open));
    t.is(error?.code, status.UNAVAILABLE);
    const late = await t.throwsAsync<ServiceError>(server.watch().accepted);
    t.is(late?.code, status.UNAVAILABLE);
  } finally {
    server.stop();
  }
});

test("an address holding its cap of open streams is refused the next before its handler runs, until one ends", async (t) => {
  let started = 0;
  const server = await serve(
    async (_request, context) => {
      started++;
      context.accept();
      await new Promise<void>((_resolve, reject) =>
        context.signal.addEventListener("abort", () => reject(context.signal.reason as Error)),
      );
    },
    { perAddress: new Slots(0, 2) },
  );
  try {
    const first = new AbortController();
    await server.watch(0, first.signal).accepted;
    await server.watch().accepted;
    const refused = await t.throwsAsync<ServiceError>(server.watch().accepted);
    t.is(refused?.code, status.RESOURCE_EXHAUSTED);
    t.is(refused?.details, "too many streams open from this address; close one first");
    t.is(started, 2, "the refused stream's handler never ran");

    // A refusal holds no slot, an ended stream gives its own back: one more is taken, then no more.
    first.abort();
    let accepted = false;
    for (const deadline = Date.now() + 5_000; !accepted && Date.now() < deadline; await sleep(50)) {
      accepted = await server.watch().accepted.then(
        () => true,
        () => false,
      );
    }
    t.true(accepted, "a stream is taken again once one of the address's has ended");
    t.is((await t.throwsAsync<ServiceError>(server.watch().accepted))?.code, status.RESOURCE_EXHAUSTED);
    t.is(started, 3);
  } finally {
    server.stop();
  }
});

test("a reader slower than the server holds it back (flow control) and still gets every message", async (t) => {
  let sent = 0;
  const server = await serve(async (_request, context, send) => {
    context.accept();
    const big = "x".repeat(64 * 1024);
    for (let v = 1; v <= 200; v++) {
      await send({ version: v, state: TableState.fromPartial({ gameId: big }), latestVersion: v });
      sent = v;
    }
  });
  try {
    const stream = server.watch();
    const iterator = stream[Symbol.asyncIterator]();
    t.is((await iterator.next()).value?.version, 1);
    await sleep(300);
    // 200 messages of 64 KiB do not fit the transport's windows and the client's buffer.
    t.true(sent < 200, `the server sent ${sent} of 200 while the client read one`);
    const rest: number[] = [];
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) rest.push(next.value.version);
    t.deepEqual(
      rest,
      Array.from({ length: 199 }, (_, i) => i + 2),
    );
  } finally {
    server.stop();
  }
});
