// The odds service's adapter over a real pool (the built one, dist): a call that ends before its
// answer (its client cancelled it, or its deadline passed) drops its waiting task and is answered
// as a refusal, never INTERNAL, and logs no error: nobody waits for it, and no server failed.
import { Metadata, status, type ServerUnaryCall, type ServiceError } from "@grpc/grpc-js";
import type {
  DealRequest,
  DealResponse,
  EquityRequest,
  EquityResponse,
} from "@pokerodds/common/generated/pokerodds/odds/v1/odds";
import { OddsPool } from "@pokerodds/odds/pool";
import { oddsService } from "@pokerodds/odds/service";
import test from "ava";
import { EventEmitter } from "node:events";
import { Writable } from "node:stream";
import { pino } from "pino";

/** A served call as grpc-js hands it to the handler; `cancelled` as grpc-js sets it. */
function servedCall<Request, Response>(method: string, request: Request, cancelled: boolean) {
  const call = Object.assign(new EventEmitter(), {
    request,
    metadata: new Metadata(),
    cancelled,
    getPath: () => `/pokerodds.odds.v1.OddsService/${method}`,
  });
  return call as typeof call & ServerUnaryCall<Request, Response>;
}

const dealCall = (cancelled = false) => servedCall<DealRequest, DealResponse>("Deal", { numberOfHands: 4 }, cancelled);

/** A table's Equity call: four hands' hole cards, no board. */
const equityCall = () =>
  servedCall<EquityRequest, EquityResponse>("Equity", { hands: ["AsKs", "QhQd", "7c2d", "9h8h"], board: [] }, false);

type Unary<Request, Response> = (
  call: ServerUnaryCall<Request, Response>,
  done: (error: unknown, response?: Response | null) => void,
) => void;

function answerOf<Request, Response>(handler: Unary<Request, Response>, call: ServerUnaryCall<Request, Response>) {
  return new Promise<{ error: Partial<ServiceError> | null; response?: Response }>((resolve) =>
    handler(call, (error, response) =>
      resolve({ error: error as Partial<ServiceError> | null, response: response ?? undefined }),
    ),
  );
}

test("a deal whose call ended, before its task ran or while it waited, is no INTERNAL and no error line", async (t) => {
  const pool = new OddsPool({ urgent: 1, batch: 1 }, 1_000);
  t.teardown(() => pool.close());
  const lines: Array<{ level: number; msg: string }> = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()) as { level: number; msg: string });
      done();
    },
  });
  const { deal } = oddsService(pool, pino({ level: "info" }, sink));

  // Ended before the handler ran (grpc-js emits no further "cancelled" then): never begun.
  const early = await answerOf(deal, dealCall(true));
  t.is(early.error?.code, status.CANCELLED);

  // Ended while its task waited behind others on the one thread.
  const ahead = Array.from({ length: 20 }, () => answerOf(deal, dealCall()));
  const waiting = dealCall();
  const answered = answerOf(deal, waiting);
  await new Promise((resolve) => setImmediate(resolve));
  waiting.emit("cancelled");
  t.is((await answered).error?.code, status.UNAVAILABLE);
  for (const other of await Promise.all(ahead)) t.is(other.error, null);

  const ERROR = 50;
  t.deepEqual(
    lines.filter((line) => line.level >= ERROR),
    [],
  );
});

test("a table's Equity is never refused by a lane full of public deals, and runs before those waiting", async (t) => {
  const pool = new OddsPool({ urgent: 1, batch: 1 }, 4);
  t.teardown(() => pool.close());
  const { deal, equity } = oddsService(pool, pino({ level: "silent" }));
  const answeredInOrder: string[] = [];
  const answered = (who: string) => (outcome: { error: Partial<ServiceError> | null }) => {
    if (!outcome.error) answeredInOrder.push(who);
    return outcome;
  };
  // One running on the one thread, four waiting (the lane's size), the rest refused.
  const publicDeals = Array.from({ length: 12 }, () => answerOf(deal, dealCall()).then(answered("public")));
  const tableEquity = answerOf(equity, equityCall()).then(answered("table"));

  const refused = (await Promise.all(publicDeals)).filter(
    (outcome) => outcome.error?.code === status.RESOURCE_EXHAUSTED,
  );
  t.is(refused.length, 7, "the public lane was full");
  t.is((await tableEquity).error, null);
  t.deepEqual(answeredInOrder, ["public", "table", "public", "public", "public", "public"]);
});
