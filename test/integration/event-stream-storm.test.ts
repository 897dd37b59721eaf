// Event streams opened and closed by the thousand against one table replica: the streams of a table
// share one WatchTable call in the gateway, so the clients that leave cancel nothing on the
// gateway's connection to the table service. When each stream was its own call, each leaving client
// sent one cancel (an HTTP/2 RST_STREAM); past about 1,000 in a burst and 33 a second, Node's HTTP/2
// server (the table service's) closed the connection as a rapid-reset attack, and every call on it
// failed: other players' streams ended, and their reads answered 500.
import test from "ava";
import { readFile } from "node:fs/promises";
import { Api } from "../helpers/api.js";
import { until } from "../helpers/poll.js";
import { openSse } from "../helpers/sse.js";
import { stackPerFile } from "../helpers/stack.js";

const file = stackPerFile(test);
const TABLE = 2;
const STREAMS_PER_CLIENT = 600;

test("2,400 streams that come and go: another stream, and the calls, go on untouched", async (t) => {
  const stack = await file.ready;
  const api = new Api(stack.url, stack.dataDir);
  const [watcher, sitter] = [await api.player("storm-watcher"), await api.player("storm-sitter")];
  await sitter.balance();
  const open = async (token: string) => {
    const stream = await openSse(`${stack.url}/api/tables/${TABLE}/events`, token);
    if (stream.status !== 200) throw new Error(`${stream.status} ${JSON.stringify(stream.body)}`);
    return stream;
  };
  const watching = await open(watcher.token);
  t.teardown(() => watching.close());
  await until("the current state", () => watching.events.length === 1);

  const comers = await Promise.all([1, 2, 3, 4].map((i) => api.player(`storm-${i}`)));
  await Promise.all(
    comers.map(async (comer) => {
      for (let i = 0; i < STREAMS_PER_CLIENT; i++) {
        const stream = await open(comer.token);
        await until("its first event", () => stream.events.length === 1);
        stream.close();
      }
    }),
  );

  const sit = await sitter.sit(TABLE, 50, "storm-sit");
  t.is(sit.status, 200);
  await until("the sit, on the stream open throughout", () => watching.events.length === 2);
  t.false(watching.endedByServer());
  const log = await readFile(stack.logFile, "utf8");
  t.notRegex(log, /INTERNAL|table event stream failed/);
});
