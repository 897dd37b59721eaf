// The web client's routes: its sign-in config, the development sign-in (only with that issuer, only
// for this machine), and its files at `/` under a policy of their own.
import test from "ava";
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { rawRequest, startApp } from "./helpers/app.js";

const signer = async (playerId: string, role?: string) => `signed:${playerId}:${role ?? "-"}`;

async function webRoot(): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), "web-"));
  await writeFile(join(root, "index.html"), "<!doctype html><title>Poker odds</title>");
  return root;
}

test("with the development issuer: config says so, and /api/dev/token signs for this machine", async (t) => {
  const app = await startApp({ client: { webRoot: await webRoot(), config: { devSignIn: true }, devSign: signer } });
  t.teardown(() => app.close());
  t.deepEqual(await (await fetch(`${app.url}/api/client-config`)).json(), { devSignIn: true });
  const signed = await fetch(`${app.url}/api/dev/token`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ playerId: "alice", role: "ADMIN" }),
  });
  t.is(signed.status, 200);
  t.deepEqual(await signed.json(), { token: "signed:alice:ADMIN" });
  const refused = await fetch(`${app.url}/api/dev/token`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ playerId: "alice", role: "KING" }),
  });
  t.is(refused.status, 400);
  t.deepEqual(await refused.json(), { error: "role must be one of BASIC_USER, PAYING_USER, ANON_USER, ADMIN" });
  // What comes through a proxy on this machine is refused: a forwarding header, or HTTP/1.0 with none
  // (nginx's default proxy_pass, which also sends Host: 127.0.0.1).
  for (const header of ["Via", "X-Forwarded-Host", "X-Forwarded-For"]) {
    const proxied = await fetch(`${app.url}/api/dev/token`, {
      method: "POST",
      headers: { "Content-Type": "application/json", [header]: "1.1 proxy" },
      body: JSON.stringify({ playerId: "mallory", role: "ADMIN" }),
    });
    t.is(proxied.status, 403, header);
  }
  const body = JSON.stringify({ playerId: "mallory", role: "ADMIN" });
  const port = Number(new URL(app.url).port);
  const http10 = await rawRequest(
    port,
    `POST /api/dev/token HTTP/1.0\r\nHost: 127.0.0.1:${port}\r\nConnection: close\r\n` +
      `Content-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
  );
  t.regex(http10, /^HTTP\/1\.1 403 /);
  t.notRegex(http10, /token/);
});

test("without it (a real identity provider): no /api/dev/token, and the config names the OIDC issuer", async (t) => {
  const oidc = { issuer: "https://idp.example.com/", clientId: "web", audience: "pokerodds-api" };
  const app = await startApp({ client: { webRoot: await webRoot(), config: { devSignIn: false, oidc } } });
  t.teardown(() => app.close());
  t.deepEqual(await (await fetch(`${app.url}/api/client-config`)).json(), { devSignIn: false, oidc });
  const signed = await fetch(`${app.url}/api/dev/token`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ playerId: "alice" }),
  });
  t.is(signed.status, 404);
  t.like(await signed.json(), { error: "no such endpoint: POST /api/dev/token" });
});

test("the client's files at / with a self-only policy; the API keeps its own", async (t) => {
  const app = await startApp({ client: { webRoot: await webRoot(), config: { devSignIn: false } } });
  t.teardown(() => app.close());
  const page = await fetch(`${app.url}/`);
  t.is(page.status, 200);
  t.regex(await page.text(), /<title>Poker odds<\/title>/);
  t.regex(page.headers.get("content-security-policy") ?? "", /default-src 'self'/);
  const api = await fetch(`${app.url}/api/client-config`);
  t.is(api.headers.get("content-security-policy"), "default-src 'none';frame-ancestors 'none'");
  // What no file answers is the API's: its 404 and 405 keep the API's policy, not the page's.
  const missing = await fetch(`${app.url}/no-such-file.js`);
  t.is(missing.status, 404);
  t.is(missing.headers.get("content-security-policy"), "default-src 'none';frame-ancestors 'none'");
  const wrongMethod = await fetch(`${app.url}/api/tables`, { method: "DELETE" });
  t.is(wrongMethod.status, 405);
  t.is(wrongMethod.headers.get("content-security-policy"), "default-src 'none';frame-ancestors 'none'");
  // A file's refusal of a conditional or range request is an API answer too, with nothing of the file's.
  for (const headers of [{ Range: "bytes=9999-" }, { "If-Match": '"another"' }]) {
    const refused = await fetch(`${app.url}/index.html`, { headers });
    t.true([412, 416].includes(refused.status), `${refused.status}`);
    t.is(refused.headers.get("content-security-policy"), "default-src 'none';frame-ancestors 'none'");
    t.regex(refused.headers.get("content-type") ?? "", /^application\/json/);
    t.is(refused.headers.get("etag"), null);
    t.like(await refused.json(), { error: "invalid request" });
  }
});

// A page whose own domain resolves to 127.0.0.1 (DNS rebinding) sends that domain as Host; a proxy on
// this machine connects from loopback and names its caller in a forwarding header.
test("the development sign-in refuses a rebound host name and a request through a proxy", async (t) => {
  const app = await startApp({ client: { webRoot: await webRoot(), config: { devSignIn: true }, devSign: signer } });
  t.teardown(() => app.close());
  const { port } = new URL(app.url);
  const signIn = (headers: Record<string, string>) =>
    post(Number(port), "/api/dev/token", { "Content-Type": "application/json", ...headers }, { playerId: "mallory" });
  const refusal = { status: 403, body: { error: "development sign-in is offered to this machine only" } };
  t.deepEqual(await signIn({ Host: `rebound.example:${port}` }), refusal);
  t.deepEqual(await signIn({ Host: "localhost.example.com" }), refusal);
  t.deepEqual(await signIn({ "X-Forwarded-For": "203.0.113.7" }), refusal);
  t.deepEqual(await signIn({ Forwarded: "for=203.0.113.7" }), refusal);
  t.deepEqual(await signIn({ "X-Real-IP": "203.0.113.7" }), refusal);
  t.deepEqual(await signIn({ "CF-Connecting-IP": "203.0.113.7" }), refusal);
  t.deepEqual(await signIn({ "X-Original-Forwarded-For": "203.0.113.7" }), refusal);
  for (const host of [`localhost:${port}`, `127.0.0.1:${port}`, "[::1]", "localhost"]) {
    t.deepEqual(await signIn({ Host: host }), { status: 200, body: { token: "signed:mallory:-" } }, host);
  }
});

/** A POST with exactly these headers (fetch would not send a Host of the caller's choosing). */
async function post(port: number, path: string, headers: Record<string, string>, body: unknown) {
  const { request } = await import("node:http");
  return new Promise<{ status: number; body: unknown }>((resolve, reject) => {
    const sent = request({ host: "127.0.0.1", port, path, method: "POST", headers }, (answer) => {
      let text = "";
      answer.setEncoding("utf8");
      answer.on("data", (chunk: string) => (text += chunk));
      answer.on("end", () => resolve({ status: answer.statusCode ?? 0, body: JSON.parse(text) as unknown }));
    });
    sent.on("error", reject);
    sent.end(JSON.stringify(body));
  });
}

// The socket's address decides, so the request must arrive on a non-loopback interface of this machine.
test("the development sign-in refuses a caller from another address", async (t) => {
  const { networkInterfaces } = await import("node:os");
  const external = Object.values(networkInterfaces())
    .flat()
    .find((address) => address && address.family === "IPv4" && !address.internal);
  if (!external) return t.fail("this machine has no non-loopback IPv4 address to test from");
  const app = await startApp({
    host: "0.0.0.0",
    client: { webRoot: await webRoot(), config: { devSignIn: true }, devSign: signer },
  });
  t.teardown(() => app.close());
  const port = new URL(app.url).port;
  const answer = await fetch(`http://${external.address}:${port}/api/dev/token`, {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-Forwarded-For": "127.0.0.1" },
    body: JSON.stringify({ playerId: "mallory", role: "ADMIN" }),
  });
  t.is(answer.status, 403);
  t.deepEqual(await answer.json(), { error: "development sign-in is offered to this machine only" });
});
