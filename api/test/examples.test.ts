// Every operation shows an example of what it takes and answers, and each example is one the
// schema admits; every link names an operation that exists and a parameter that operation has.
import test from "ava";
import { Ajv2020 } from "ajv/dist/2020.js";
import { openApiDocument } from "../src/document.js";

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const document = openApiDocument() as Json;
const ajv = new Ajv2020({ strict: false, formats: { "date-time": true } });
for (const [name, schema] of Object.entries(document.components.schemas as Json)) {
  ajv.addSchema(schema, `#/components/schemas/${name}`);
}

const TABLE_STATE = { $ref: "#/components/schemas/TableGameState" };

const operations = Object.entries(document.paths as Json).flatMap(([path, methods]) =>
  Object.entries(methods as Json).map(([method, operation]) => ({ path, method, operation: operation as Json })),
);
const byId = new Map(operations.map((entry) => [entry.operation.operationId as string, entry]));

function assertExample(t: import("ava").ExecutionContext, where: string, content: Json | undefined) {
  // An event stream's example is its text: each event's data must be a state the schema admits.
  const stream = content?.["text/event-stream"];
  if (stream) {
    const data = String(stream.example ?? "")
      .split("\n")
      .filter((line) => line.startsWith("data: "));
    t.true(data.length > 0, `${where}: no example event`);
    for (const line of data) t.true(ajv.validate(TABLE_STATE, JSON.parse(line.slice(6))), `${where}: ${line}`);
    return;
  }
  // JSON Lines: the example is the text, and each of its lines a value of the schema (that of one line).
  const lines = content?.["application/x-ndjson"];
  if (lines) {
    const text = String(lines.example ?? "");
    t.true(text.endsWith("\n"), `${where}: every line ends with a newline`);
    const values = text.split("\n").slice(0, -1);
    t.true(values.length > 0, `${where}: no example line`);
    for (const line of values) {
      t.true(ajv.validate(lines.schema, JSON.parse(line)), `${where}: ${line}: ${JSON.stringify(ajv.errors)}`);
    }
    return;
  }
  const media = content?.["application/json"];
  if (!media) return t.fail(`${where}: no JSON content`);
  t.not(media.example, undefined, `${where}: no example`);
  const valid = ajv.validate(media.schema, media.example);
  t.true(valid, `${where}: ${JSON.stringify(ajv.errors)}`);
}

test("every operation has a valid example of its body (if it takes one) and of its answer", (t) => {
  for (const { path, method, operation } of operations) {
    const where = `${method.toUpperCase()} ${path}`;
    if (operation.requestBody) assertExample(t, `${where} request`, operation.requestBody.content);
    assertExample(t, `${where} 200`, operation.responses[200].content);
  }
});

test("links name existing operations and parameters, and walk profile, sit, state, bet, advance, leave", (t) => {
  const edges = new Set<string>();
  for (const { operation } of operations) {
    for (const link of Object.values((operation.responses[200].links ?? {}) as Json)) {
      const target = byId.get(link.operationId);
      if (!target) {
        t.fail(`${operation.operationId} links to unknown ${link.operationId}`);
        continue;
      }
      const names = new Set((target.operation.parameters ?? []).map((p: Json) => p.name));
      for (const name of Object.keys(link.parameters ?? {})) t.true(names.has(name), `${link.operationId}: ${name}`);
      edges.add(`${operation.operationId}->${link.operationId}`);
    }
  }
  for (const edge of ["getPlayer->sit", "sit->getTableState", "sit->bet", "bet->advance", "advance->leave"]) {
    t.true(edges.has(edge), edge);
  }
});

test("the bulk example's best five cards are five codes from its hand and the board shown at that stage", (t) => {
  const example = document.paths["/api/games/bulk"].post.responses[200].content["application/json"].example;
  const game = example.games[0] as Json;
  const board = [game.bc1, game.bc2, game.bc3, game.bc4, game.bc5] as string[];
  const shown: Record<number, number> = { 0: 0, 1: 3, 2: 4, [-1]: 5 };
  for (const info of game.handStageInfoList as Json[]) {
    const where = `hand ${info.handIndex} at stage ${info.bettingStage}`;
    if (info.bettingStage === 0) {
      t.is(info.bestFiveCards, null, where);
      continue;
    }
    const hand = game.hands[info.handIndex] as string;
    const seen = [hand.slice(0, 2), hand.slice(2), ...board.slice(0, shown[info.bettingStage])];
    const cards = String(info.bestFiveCards).split(" ");
    t.is(cards.length, 5, where);
    t.deepEqual(
      cards.filter((card) => !seen.includes(card)),
      [],
      `${where}: ${info.bestFiveCards} from ${seen.join(" ")}`,
    );
    t.is(new Set(cards).size, 5, where);
  }
});
