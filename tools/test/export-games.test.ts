// `npm run export-games` against a fake gateway that streams JSON Lines as the test says: the records
// written line by line as they arrive (to a file or standard output, the trailer left out), the
// filters sent as the query, a truncated export (cut connection, an `{ error }` line, a miscounting
// trailer) exiting 1 with the cursor to resume from, and refusals and bad usage exiting 2.
import test, { type ExecutionContext } from "ava";
import { spawn } from "node:child_process";
import { appendFileSync } from "node:fs";
import { mkdtemp, readFile, rm, stat, truncate, writeFile } from "node:fs/promises";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PassThrough, Writable } from "node:stream";
import { fileURLToPath } from "node:url";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { runExportCli } from "../src/game-export-cli.js";

const record = (tableId: number, version: number) =>
  JSON.stringify({
    tableId,
    version,
    gameId: `T${tableId}-${version}`,
    cursor: `${tableId}:${version}`,
    outcome: "SETTLED",
  });
const trailer = (games: number) => JSON.stringify({ end: true, games });

/** A gateway whose GET /api/admin/games the test answers; every request is kept. */
async function fakeGateway(
  t: ExecutionContext,
  answer: (req: IncomingMessage, res: ServerResponse) => void | Promise<void>,
) {
  const requests: IncomingMessage[] = [];
  const server = createServer((req, res) => {
    requests.push(req);
    void answer(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  t.teardown(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests };
}

/**
 * The export's answer begins. Its connection closes after it: each run of the command is a process of
 * its own, one request on a fresh connection, while these runs share one process's connection pool.
 * (A run under CI's load that read no trailer had its Response collected, and so its body cancelled,
 * before reading it: game-export-cli.ts's openExport, and the test of it below.)
 */
function startLines(res: ServerResponse): void {
  res.writeHead(200, { "content-type": "application/x-ndjson", connection: "close" });
}

async function tempFile(t: ExecutionContext): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "export-games-"));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  return join(dir, "games.jsonl");
}

async function run(url: string, args: string[], stdout: Writable = new PassThrough(), stdoutFile?: string) {
  const err: string[] = [];
  const chunks: Buffer[] = [];
  stdout.on("data", (chunk: Buffer) => chunks.push(chunk));
  const noDevToken = async () => {
    throw new Error("no development token in this test");
  };
  const code = await runExportCli(
    { AUDIT_URL: url, AUDIT_TOKEN: "tok" },
    args,
    { stdout, stdoutFile, err: (text) => err.push(text) },
    noDevToken,
  );
  return { code, err: err.join("\n"), stdout: Buffer.concat(chunks).toString() };
}

test("a complete export: the records, line for line, into the file; the filters as the query; exit 0", async (t) => {
  const gateway = await fakeGateway(t, (_req, res) => {
    startLines(res);
    res.end(`${record(3, 12)}\n${record(3, 20)}\n${trailer(2)}\n`);
  });
  const out = await tempFile(t);
  const result = await run(gateway.url, ["--table", "3", "--since", "2026-11-23", "--after", "3:4", "--out", out]);
  t.is(result.code, 0, result.err);
  t.is(await readFile(out, "utf8"), `${record(3, 12)}\n${record(3, 20)}\n`);
  t.regex(result.err, /2 games exported/);
  const [request] = gateway.requests;
  const url = new URL(request!.url!, gateway.url);
  t.is(url.pathname, "/api/admin/games");
  t.deepEqual(Object.fromEntries(url.searchParams), {
    tableId: "3",
    finishedAfter: "2026-11-23T00:00:00.000Z",
    after: "3:4",
  });
  t.is(request!.headers.authorization, "Bearer tok");
});

test("written as they arrive: the first record is in the file while the gateway still holds the rest", async (t) => {
  let release = () => {};
  const gateway = await fakeGateway(t, async (_req, res) => {
    startLines(res);
    res.write(`${record(1, 5)}\n`);
    await new Promise<void>((resolve) => (release = resolve));
    res.end(`${record(1, 9)}\n${trailer(2)}\n`);
  });
  const out = await tempFile(t);
  const running = run(gateway.url, ["--out", out]);
  // The export cannot end before release(): the deadline only bounds the child's start on a busy machine.
  const deadline = Date.now() + 30_000;
  while ((await readFile(out, "utf8").catch(() => "")) !== `${record(1, 5)}\n`) {
    if (Date.now() > deadline) return t.fail("the first record was not written before the export ended");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  release();
  t.is((await running).code, 0);
  t.is(await readFile(out, "utf8"), `${record(1, 5)}\n${record(1, 9)}\n`);
  t.is((await stat(out)).mode & 0o777, 0o600, "every game's bets and players: the owner's alone");
});

test("truncated: a cut connection, an { error } line, a miscounting trailer exit 1, saying where to resume", async (t) => {
  const endings: Record<string, (res: ServerResponse) => void> = {
    cut: (res) => res.socket!.destroy(),
    error: (res) => {
      res.write(`${JSON.stringify({ error: "table service unavailable" })}\n`);
      setTimeout(() => res.socket!.destroy(), 50);
    },
    miscount: (res) => res.end(`${trailer(5)}\n`),
    partial: (res) => res.end('{"tableId":3,'),
  };
  for (const [kind, ending] of Object.entries(endings)) {
    const gateway = await fakeGateway(t, (_req, res) => {
      startLines(res);
      res.write(`${record(3, 12)}\n`, () => setTimeout(() => ending(res), 50));
    });
    const result = await run(gateway.url, []);
    t.is(result.code, 1, `${kind}: ${result.err}`);
    t.is(result.stdout, `${record(3, 12)}\n`, kind);
    t.regex(
      result.err,
      /TRUNCATED: .*; the last game written whole is T3-12; resume with: npm run export-games -- --after 3:12$/,
      kind,
    );
  }
});

test("resumed into the same file: the records are added after those already there", async (t) => {
  // Two gateways, so that the two runs share no connection pool (once, under CI's load, the resumed
  // run read an empty answer from the one gateway both runs called).
  const cut = await fakeGateway(t, (_req, res) => {
    startLines(res);
    // Cut short by ending without the trailer: a cut connection could lose the record on a busy machine.
    res.end(`${record(3, 12)}\n`);
  });
  const rest = await fakeGateway(t, (_req, res) => {
    startLines(res);
    res.end(`${record(3, 20)}\n${trailer(1)}\n`);
  });
  const out = await tempFile(t);
  t.is((await run(cut.url, ["--out", out])).code, 1);
  const resumed = await run(rest.url, ["--after", "3:12", "--out", out]);
  t.is(resumed.code, 0, resumed.err);
  t.is(new URL(rest.requests[0]!.url!, rest.url).searchParams.get("after"), "3:12");
  t.is(await readFile(out, "utf8"), `${record(3, 12)}\n${record(3, 20)}\n`);
});

test("a failed write: the last game written whole, and the cursor to resume from, are those the writes reported done", async (t) => {
  const gateway = await fakeGateway(t, (_req, res) => {
    startLines(res);
    res.end(`${record(3, 12)}\n${record(3, 20)}\n${record(3, 31)}\n${trailer(3)}\n`);
  });
  const lines: string[] = [];
  // Takes the first line, then fails as a full disk does.
  const disk = new Writable({
    write(chunk: Buffer, _encoding, done) {
      if (lines.length === 1) return done(new Error("ENOSPC: no space left on device"));
      lines.push(chunk.toString());
      done();
    },
  });
  const result = await run(gateway.url, ["--table", "3", "--since", "2026-11-23 12:00"], disk);
  t.is(result.code, 1, result.err);
  t.deepEqual(lines, [`${record(3, 12)}\n`]);
  t.is(
    result.err,
    "export-games: TRUNCATED: cannot write the records: ENOSPC: no space left on device; " +
      "the last game written whole is T3-12; " +
      "resume with: npm run export-games -- --table 3 --since '2026-11-23 12:00' --after 3:12",
  );
  const nothing = await run(gateway.url, ["--out", "/dev/full"]);
  t.is(nothing.code, 1, nothing.err);
  t.is(
    nothing.err,
    "export-games: TRUNCATED: cannot write the records: ENOSPC: no space left on device, write; " +
      "no game was written whole; resume with: npm run export-games -- --out /dev/full",
  );
});

/**
 * Standard output redirected to `file` through a writer that reports every write done but keeps
 * only `keep` of each line: what Node's writer to a redirected file does when the disk fills.
 */
async function shortWrites(t: ExecutionContext, keep: (line: number) => number) {
  const file = await tempFile(t);
  await writeFile(file, "");
  let lines = 0;
  const stdout = new Writable({
    write(chunk: Buffer, _encoding, done) {
      appendFileSync(file, chunk.subarray(0, keep(lines++)));
      done();
    },
  });
  return { file, stdout };
}

test("standard output to a file is read back: the last game written whole is the file's, whatever the writes reported", async (t) => {
  const gateway = await fakeGateway(t, (_req, res) => {
    startLines(res);
    res.end(`${record(3, 12)}\n${record(3, 20)}\n${record(3, 31)}\n${trailer(3)}\n`);
  });
  // The second line cut short, the third lost: every write said done, and the trailer came.
  const { file, stdout } = await shortWrites(t, (line) => (line === 0 ? Infinity : line === 1 ? 20 : 0));
  const result = await run(gateway.url, ["--table", "3"], stdout, file);
  t.is(result.code, 1, result.err);
  t.is(
    result.err,
    `export-games: TRUNCATED: ${file} does not end with the last game sent, T3-31; ` +
      `the last game written whole is T3-12; resume with: npm run export-games -- --table 3 --after 3:12 --out ${file}`,
  );
  // Whole: complete as reported.
  const whole = await shortWrites(t, () => Infinity);
  const complete = await run(gateway.url, [], whole.stdout, whole.file);
  t.is(complete.code, 0, complete.err);
  t.is(complete.err, "export-games: 3 games exported");
});

test("a resumed export to a redirected standard output checks and cuts its file as --out does", async (t) => {
  const gateway = await fakeGateway(t, (_req, res) => {
    startLines(res);
    res.end(`${record(3, 20)}\n${trailer(1)}\n`);
  });
  const { file, stdout } = await shortWrites(t, () => Infinity);
  const halfWritten = `${record(1, 4)}\n${record(3, 12)}\n${record(3, 20).slice(0, 25)}`;
  await writeFile(file, halfWritten);
  const elsewhere = await run(gateway.url, ["--after", "1:4"], stdout, file);
  t.is(elsewhere.code, 2, elsewhere.err);
  t.regex(elsewhere.err, /ends with the game of cursor 3:12: resume with --after 3:12/);
  t.is(await readFile(file, "utf8"), halfWritten, "a refused resume leaves the file as it was");
  const resumed = await run(gateway.url, ["--after", "3:12"], stdout, file);
  t.is(resumed.code, 0, resumed.err);
  t.is(await readFile(file, "utf8"), `${record(1, 4)}\n${record(3, 12)}\n${record(3, 20)}\n`);
});

test("an export added with >> to a file of other games: a record before it is not its own, and nothing of it is cut", async (t) => {
  let cut = true;
  const gateway = await fakeGateway(t, (_req, res) => {
    startLines(res);
    if (cut) res.write("", () => setTimeout(() => res.socket!.destroy(), 50));
    else res.end(`${record(3, 20)}\n${trailer(1)}\n`);
  });
  const { file, stdout } = await shortWrites(t, () => Infinity);
  await writeFile(file, `${record(4, 7)}\n`);
  const result = await run(gateway.url, ["--table", "3"], stdout, file);
  t.is(result.code, 1, result.err);
  // Not "after 4:7": no game of table 3 comes after it, so that resume would export none.
  t.regex(result.err, /; no game was written whole; resume with: npm run export-games -- --table 3$/);
  // Without --after the file is not the export's to cut: another program's lines before it stay.
  await writeFile(file, `${record(4, 7)}\nnotes\n`);
  cut = false;
  t.is((await run(gateway.url, ["--table", "3"], stdout, file)).code, 0);
  t.is(await readFile(file, "utf8"), `${record(4, 7)}\nnotes\n${record(3, 20)}\n`);
});

test("a resumed export cut before its first record says to resume where it was to begin", async (t) => {
  const gateway = await fakeGateway(t, (_req, res) => {
    startLines(res);
    res.write("", () => setTimeout(() => res.socket!.destroy(), 50));
  });
  const out = await tempFile(t);
  await writeFile(out, `${record(3, 12)}\n`);
  const result = await run(gateway.url, ["--table", "3", "--after", "3:12", "--out", out]);
  t.is(result.code, 1, result.err);
  t.regex(
    result.err,
    new RegExp(
      `; no game was written whole; resume with: npm run export-games -- --table 3 --after 3:12 --out ${out}$`,
    ),
  );
  const piped = await run(gateway.url, ["--after", "3:12"]);
  t.regex(piped.err, /; no game was written whole; resume with: npm run export-games -- --after 3:12$/);
});

test("a resumed export to a device or a pipe is not read back: --after with --out /dev/null works", async (t) => {
  const gateway = await fakeGateway(t, (_req, res) => {
    startLines(res);
    res.end(`${record(3, 20)}\n${trailer(1)}\n`);
  });
  const result = await run(gateway.url, ["--after", "3:12", "--out", "/dev/null"]);
  t.is(result.code, 0, result.err);
  t.is(result.err, "export-games: 1 games exported");
});

test("a file whose end holds no line end for longer than any record is refused, not emptied", async (t) => {
  const gateway = await fakeGateway(t, (_req, res) => {
    startLines(res);
    res.end(`${record(3, 20)}\n${trailer(1)}\n`);
  });
  const out = await tempFile(t);
  await writeFile(out, "");
  await truncate(out, 9 * 1024 * 1024);
  const result = await run(gateway.url, ["--after", "3:12", "--out", out]);
  t.is(result.code, 2, result.err);
  t.regex(result.err, /has no line end where a game record would: it is not an export$/);
  t.is((await stat(out)).size, 9 * 1024 * 1024, "the file is left as it was");
});

test("resumed into a file a failed write left half a line in: that half is cut; another cursor is refused", async (t) => {
  const gateway = await fakeGateway(t, (_req, res) => {
    startLines(res);
    res.end(`${record(3, 20)}\n${trailer(1)}\n`);
  });
  const out = await tempFile(t);
  const halfWritten = `${record(1, 4)}\n${record(3, 12)}\n${record(3, 20).slice(0, 25)}`;
  await writeFile(out, halfWritten);
  const elsewhere = await run(gateway.url, ["--after", "1:4", "--out", out]);
  t.is(elsewhere.code, 2, elsewhere.err);
  t.regex(elsewhere.err, /ends with the game of cursor 3:12: resume with --after 3:12, or name another --out$/);
  t.is(await readFile(out, "utf8"), halfWritten, "a refused resume leaves the file as it was");
  t.is(gateway.requests.length, 1);
  const resumed = await run(gateway.url, ["--after", "3:12", "--out", out]);
  t.is(resumed.code, 0, resumed.err);
  t.is(await readFile(out, "utf8"), `${record(1, 4)}\n${record(3, 12)}\n${record(3, 20)}\n`);
  await writeFile(out, record(3, 12).slice(0, 10));
  const fresh = await run(gateway.url, ["--after", "3:12", "--out", out]);
  t.is(fresh.code, 0, `no whole line, nothing to check: ${fresh.err}`);
  t.is(await readFile(out, "utf8"), `${record(3, 20)}\n`);
  // Said, so that a resume into another path than the first export's is not taken for a whole export.
  t.is(
    fresh.err,
    `export-games: 1 games exported into ${out}, which held no game before them: it holds the games after 3:12 alone`,
  );
});

// Serial: it collects garbage all along, in the whole process.
test.serial(
  "the export's body is read even when its Response is collected first (undici cancels an unread body then)",
  async (t) => {
    setFlagsFromString("--expose-gc");
    const gc = runInNewContext("gc") as () => void;
    const collecting = setInterval(gc, 2);
    t.teardown(() => clearInterval(collecting));
    const gateway = await fakeGateway(t, (_req, res) => {
      startLines(res);
      res.end(`${record(3, 20)}\n${trailer(1)}\n`);
    });
    const out = await tempFile(t);
    // Resumed: the file is read and cut back before the body is read, a while for the collector.
    for (let i = 0; i < 10; i++) {
      await writeFile(out, record(3, 12).slice(0, 10));
      const resumed = await run(gateway.url, ["--after", "3:12", "--out", out]);
      t.is(resumed.code, 0, resumed.err);
    }
  },
);

test("a bound finer than a millisecond goes to the gateway as written; any other as RFC 3339 UTC", async (t) => {
  const gateway = await fakeGateway(t, (_req, res) => {
    startLines(res);
    res.end(`${trailer(0)}\n`);
  });
  await run(gateway.url, ["--since", "2026-12-03T06:23:01.1121Z", "--until", "2026-12-04T00:00:00.0001+01:00"]);
  await run(gateway.url, ["--since", "2026-11-23T24:00:00Z", "--until", "2026-12-04"]);
  const queries = gateway.requests.map((req) => Object.fromEntries(new URL(req.url!, gateway.url).searchParams));
  t.deepEqual(queries, [
    { finishedAfter: "2026-12-03T06:23:01.1121Z", finishedBefore: "2026-12-04T00:00:00.0001+01:00" },
    { finishedAfter: "2026-11-24T00:00:00.000Z", finishedBefore: "2026-12-04T00:00:00.000Z" },
  ]);
});

test("no export: a refusal, an unreachable stack, bad usage exit 2, writing nothing", async (t) => {
  const gateway = await fakeGateway(t, (_req, res) => {
    res.writeHead(403, { "content-type": "application/json" });
    res.end(JSON.stringify({ error: "the game export is for an ADMIN" }));
  });
  const out = await tempFile(t);
  const refused = await run(gateway.url, ["--out", out]);
  t.is(refused.code, 2);
  t.regex(refused.err, /answered 403: the game export is for an ADMIN \(an ADMIN token/);
  await t.throwsAsync(readFile(out), undefined, "no file for an export that never started");
  t.is((await run("http://127.0.0.1:1", [])).code, 2);
  for (const args of [["--table", "x"], ["--since", "not a date"], ["--bogus"], ["stray"]]) {
    const usage = await run(gateway.url, args);
    t.is(usage.code, 2, args.join(" "));
    t.regex(usage.err, /usage: npm run export-games/);
  }
  t.is(gateway.requests.length, 1);
});

test("the command itself: records on standard output, exit 0 complete and 1 truncated", async (t) => {
  const cli = fileURLToPath(new URL("../src/export-games.ts", import.meta.url));
  const exportWith = (url: string) =>
    new Promise<{ code: number | null; stdout: string }>((resolve) => {
      const child = spawn(process.execPath, ["--import=tsx/esm", cli], {
        env: { PATH: process.env.PATH ?? "", AUDIT_URL: url, AUDIT_TOKEN: "tok" },
        stdio: ["ignore", "pipe", "ignore"],
      });
      let stdout = "";
      child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
      child.on("exit", (code) => resolve({ code, stdout }));
    });
  const complete = await fakeGateway(t, (_req, res) => {
    startLines(res);
    res.end(`${record(2, 7)}\n${trailer(1)}\n`);
  });
  t.deepEqual(await exportWith(complete.url), { code: 0, stdout: `${record(2, 7)}\n` });
  const cut = await fakeGateway(t, (_req, res) => {
    startLines(res);
    res.write(`${record(2, 7)}\n`, () => setTimeout(() => res.socket!.destroy(), 50));
  });
  t.deepEqual(await exportWith(cut.url), { code: 1, stdout: `${record(2, 7)}\n` });
});
