// `npm run audit`'s logic against a fake gateway: exit 0 only for a clean report, 1 for mismatch or
// pending, 2 when no audit can be had (unreachable, refused, a service down, not a report, no token).
// The development token and the command itself: tools/test/audit.test.ts.
import test from "ava";
import { NoAudit, runAuditCli, type DevTokenSigner } from "../src/cli.js";
import { fakeGateway, report } from "./helpers/fake-gateway.js";

/** For the cases that must never need a development token. */
const noDevToken: DevTokenSigner = async () => {
  throw new Error("the development token was asked for");
};

async function run(env: Record<string, string | undefined>, args: string[] = [], devToken = noDevToken) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runAuditCli(env, args, { out: (text) => out.push(text), err: (text) => err.push(text) }, devToken);
  return { code, out: out.join("\n"), err: err.join("\n") };
}

test("clean: exit 0 and the summary; the token and the path as given", async (t) => {
  const gateway = await fakeGateway(() => ({ status: 200, body: report("clean") }));
  t.teardown(() => gateway.close());
  const { code, out, err } = await run({ AUDIT_URL: `${gateway.url}/`, AUDIT_TOKEN: "tok-1" });
  t.is(code, 0);
  t.is(err, "");
  t.regex(out, /^Money audit of .*: CLEAN/);
  t.regex(out, /= held\s+1,000\.00/);
  t.is(gateway.requests[0]!.url, "/api/admin/audit");
  t.is(gateway.requests[0]!.headers.authorization, "Bearer tok-1");
});

test("pending and mismatch: exit 1, with what is found", async (t) => {
  for (const kind of ["pending", "mismatch"] as const) {
    const gateway = await fakeGateway(() => ({ status: 200, body: report(kind) }));
    const { code, out } = await run({ AUDIT_URL: `${gateway.url}/api/admin/audit`, AUDIT_TOKEN: "tok" });
    t.is(code, 1, kind);
    t.regex(
      out,
      kind === "pending"
        ? /PENDING[\s\S]*Open transfers \(1\)\n {2}SIT 25\.00 for alice/
        : /MISMATCH[\s\S]*Mismatches \(2\)/,
    );
    t.is(gateway.requests[0]!.url, "/api/admin/audit");
    await gateway.close();
  }
});

test("--json prints the report itself", async (t) => {
  const clean = report("clean");
  const gateway = await fakeGateway(() => ({ status: 200, body: clean }));
  t.teardown(() => gateway.close());
  const { code, out } = await run({ AUDIT_URL: gateway.url, AUDIT_TOKEN: "tok" }, ["--json"]);
  t.is(code, 0);
  t.deepEqual(JSON.parse(out), JSON.parse(JSON.stringify(clean)));
  t.is((await run({ AUDIT_URL: gateway.url, AUDIT_TOKEN: "tok" }, ["--yaml"])).code, 2);
  const twice = await run({ AUDIT_URL: gateway.url, AUDIT_TOKEN: "tok" }, ["--json", "--json"]);
  t.like(twice, { code: 2, err: "usage: npm run audit [-- --json]   (--json given twice)" });
  t.is(gateway.requests.length, 1, "neither usage was sent");
});

test("no audit: exit 2 for refusals, a service down, and answers that are not a report", async (t) => {
  const cases: Array<[number, unknown, RegExp]> = [
    [
      401,
      { error: "Authorization header is invalid" },
      /answered 401: Authorization header is invalid \(an ADMIN token/,
    ],
    [403, { error: "the audit is for an ADMIN" }, /answered 403: the audit is for an ADMIN/],
    [503, { error: "table service unavailable" }, /answered 503: table service unavailable \(a service is down\)/],
    [500, "<html>oops</html>", /answered 500: <html>oops<\/html>/],
    [200, { status: "clean" }, /did not answer with an audit report/],
    [
      200,
      { ...report("clean"), mismatches: report("mismatch").mismatches },
      /answered a report that contradicts itself: status clean, but 2 mismatches/,
    ],
    [
      200,
      { ...report("clean"), unsettled: report("pending").unsettled },
      /answered a report that contradicts itself: status clean, but \d+ unsettled findings/,
    ],
    [200, { ...report("mismatch"), clean: true }, /contradicts itself: status mismatch, but clean is true/],
    [200, "not json", /did not answer with an audit report/],
  ];
  for (const [status, body, message] of cases) {
    const gateway = await fakeGateway(() => ({ status, body }));
    const { code, out, err } = await run({ AUDIT_URL: gateway.url, AUDIT_TOKEN: "tok" });
    t.is(code, 2, `${status} ${JSON.stringify(body)}`);
    t.is(out, "");
    t.regex(err, message);
    await gateway.close();
  }
});

test("no audit: exit 2 when nothing listens, PORT naming the gateway when AUDIT_URL is unset", async (t) => {
  const gateway = await fakeGateway(() => ({ status: 200, body: report("clean") }));
  const { port } = gateway;
  t.is((await run({ PORT: String(port), AUDIT_TOKEN: "tok" })).code, 0);
  await gateway.close();
  const { code, err } = await run({ PORT: String(port), AUDIT_TOKEN: "tok" });
  t.is(code, 2);
  t.regex(err, new RegExp(`cannot reach the stack at http://127\\.0\\.0\\.1:${port}: ECONNREFUSED`));
  t.regex((await run({ AUDIT_URL: "not a url", AUDIT_TOKEN: "tok" })).err, /AUDIT_URL is not a URL/);
  // The token never crosses a network in the clear: plain http to this machine only.
  const remote = await run({ AUDIT_URL: "http://audit.example.net/", AUDIT_TOKEN: "tok" });
  t.deepEqual(
    [remote.code, remote.err],
    [2, "audit: AUDIT_URL must be https for audit.example.net: the ADMIN token would cross the network in the clear"],
  );
});

test("without AUDIT_TOKEN: the development token, whose refusal is exit 2", async (t) => {
  const gateway = await fakeGateway(() => ({ status: 200, body: report("clean") }));
  t.teardown(() => gateway.close());
  const seen: Array<string | undefined> = [];
  const devToken: DevTokenSigner = async (env) => {
    seen.push(env.DATA_DIR);
    return "dev-token";
  };
  t.is((await run({ AUDIT_URL: gateway.url, DATA_DIR: "/data" }, [], devToken)).code, 0);
  t.deepEqual(seen, ["/data"]);
  t.is(gateway.requests[0]!.headers.authorization, "Bearer dev-token");
  const refused = await run({ AUDIT_URL: gateway.url }, [], async () => {
    throw new NoAudit("no development issuer key under /nowhere");
  });
  t.is(refused.code, 2);
  t.is(refused.err, "audit: no development issuer key under /nowhere");
  t.is(gateway.requests.length, 1);
});

test("without AUDIT_TOKEN and with a real identity provider: exit 2, no development token", async (t) => {
  const gateway = await fakeGateway(() => ({ status: 200, body: report("clean") }));
  t.teardown(() => gateway.close());
  const remote = await run({ AUDIT_URL: gateway.url, AUTH_JWKS_URL: "https://idp.example/jwks" });
  t.is(remote.code, 2);
  t.regex(remote.err, /AUTH_JWKS_URL is set: set AUDIT_TOKEN/);
  t.is(gateway.requests.length, 0);
});

test("no audit: a stack that takes the request and never answers is said to be slow, not unreachable", async (t) => {
  const gateway = await fakeGateway(() => new Promise(() => undefined));
  t.teardown(() => gateway.close());
  const { code, err } = await run({ AUDIT_URL: gateway.url, AUDIT_TOKEN: "tok", AUDIT_DEADLINE_S: "1" });
  t.is(code, 2);
  t.is(
    err,
    `audit: no answer from the stack at ${new URL(gateway.url).origin} within 11 s (AUDIT_DEADLINE_S and 10 s more): ` +
      "GET /api/health names a service that does not answer",
  );
});
