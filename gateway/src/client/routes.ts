// The web client: its built files at `/`, its sign-in config, and the development sign-in.
import type { clientApi, ClientConfigBody, devSignInApi } from "@pokerodds/api/client";
import { DevTokenRequest } from "@pokerodds/api/client";
import { bodyValidator } from "@pokerodds/api/validate";
import express, { type ErrorRequestHandler, type RequestHandler, type Response } from "express";
import { existsSync } from "node:fs";
import { isIP } from "node:net";
import { helmetHeaderValues, securityHeaderValues } from "../http/edge.js";
import { forbidden } from "../http/errors.js";
import type { Handlers } from "../http/mount.js";
import type { Logger } from "@pokerodds/common";

/** Signs a development token; present only while the local development issuer is on. */
export type DevSigner = (playerId: string, role: DevRole | undefined) => Promise<string>;
type DevRole = NonNullable<ReturnType<typeof validateDevToken>["role"]>;

const validateDevToken = bodyValidator(DevTokenRequest);

export function clientConfigRoutes(config: ClientConfigBody): Handlers<typeof clientApi> {
  return { getClientConfig: (_req, res) => void res.json(config) };
}

/**
 * Headers a proxy adds: a request through one came from wherever the proxy's caller is. The standard
 * and common ones, and those of the proxies a development machine meets (ingress-nginx, Cloudflare
 * and cloudflared, Akamai, Fastly, Envoy, Apache).
 */
const FORWARDING_HEADERS = [
  "forwarded",
  "x-forwarded-for",
  "x-real-ip",
  "x-forwarded-host",
  "x-forwarded-proto",
  "x-forwarded-server",
  "x-original-forwarded-for",
  "x-client-ip",
  "x-cluster-client-ip",
  "cf-connecting-ip",
  "true-client-ip",
  "fastly-client-ip",
  "x-envoy-external-address",
  "via",
];

/**
 * Anyone who reaches this route may become any player, ADMIN included: it answers only a caller on
 * this machine (the socket's address, never a forwarded one), sent straight here (no proxy's
 * forwarding header, and HTTP/1.1: nginx's default proxy_pass speaks HTTP/1.0 and adds no header)
 * to a loopback name (a page that rebinds its own domain to 127.0.0.1 sends that domain as Host),
 * so a gateway with the development issuer hands no token to anyone else.
 */
export function devSignInRoutes(sign: DevSigner): Handlers<typeof devSignInApi> {
  return {
    devSignIn: async (req, res) => {
      const direct = req.httpVersion !== "1.0" && FORWARDING_HEADERS.every((name) => req.headers[name] === undefined);
      if (!isLoopback(req.socket.remoteAddress) || !direct || !isLoopbackHost(req.headers.host)) {
        throw forbidden("development sign-in is offered to this machine only");
      }
      const body = validateDevToken(req.body);
      res.json({ token: await sign(body.playerId, body.role) });
    },
  };
}

function isLoopback(address: string | undefined): boolean {
  if (!address || isIP(address) === 0) return false;
  const v4 = address.startsWith("::ffff:") ? address.slice(7) : address;
  return v4.startsWith("127.") || address === "::1";
}

/** "localhost", a loopback address, or either with a port. */
function isLoopbackHost(host: string | undefined): boolean {
  if (!host) return false;
  const name = host.replace(/:\d+$/, "");
  if (name === "localhost") return true;
  return isLoopback(name.startsWith("[") && name.endsWith("]") ? name.slice(1, -1) : name);
}

const DISCOVERY_TIMEOUT_MS = 5_000;

/**
 * The origins the client's OIDC sign-in talks to: the issuer's (its discovery document) and its token
 * endpoint's, which may be elsewhere (Google's is oauth2.googleapis.com). Read from the discovery
 * document once, at start; if it cannot be read, the issuer's alone, and the log says so.
 */
export async function signInOrigins(issuer: string, logger: Logger): Promise<string[]> {
  const origins = new Set([new URL(issuer).origin]);
  const discovery = `${issuer.replace(/\/$/, "")}/.well-known/openid-configuration`;
  try {
    const response = await fetch(discovery, { signal: AbortSignal.timeout(DISCOVERY_TIMEOUT_MS) });
    const tokenEndpoint = ((await response.json()) as { token_endpoint?: unknown }).token_endpoint;
    if (typeof tokenEndpoint !== "string") throw new Error("no token_endpoint");
    origins.add(new URL(tokenEndpoint).origin);
  } catch (error) {
    logger.warn({ err: error, discovery }, "the identity provider's token endpoint is unknown: sign-in may be blocked");
  }
  return [...origins];
}

/** What serving a file sets besides the page's policy: none of it describes an error's JSON answer. */
const FILE_HEADERS = ["Content-Type", "ETag", "Last-Modified", "Cache-Control", "Accept-Ranges"];

/**
 * The client's files, each with a policy that lets it load only from here (and talk to `signIn`, the
 * identity provider's origins for the OIDC sign-in); undefined when the client was not built. A
 * request that finds no file falls through to the API's 404 or 405, which keep the API's policy; so
 * does a file's refusal (a 412 or 416 of a conditional or range request), which the static files'
 * library decides after it has set the file's headers.
 */
export function webAssets(root: string, signIn: readonly string[]): [RequestHandler, ErrorRequestHandler] | undefined {
  if (!existsSync(root)) return undefined;
  const pageHeaders = helmetHeaderValues({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        connectSrc: ["'self'", ...signIn],
        imgSrc: ["'self'", "data:"],
        objectSrc: ["'none'"],
        baseUri: ["'none'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
      },
    },
  });
  const files = express.static(root, {
    index: "index.html",
    fallthrough: true,
    maxAge: 0,
    setHeaders: (res) => {
      for (const [name, value] of Object.entries(pageHeaders)) res.setHeader(name, value);
    },
  });
  const apiHeaders = securityHeaderValues();
  const servingFile = (res: Response) =>
    res.getHeader("Content-Security-Policy") === pageHeaders["Content-Security-Policy"];
  // Errors from before the files (the API's) pass through here as they are.
  const refused: ErrorRequestHandler = (error, _req, res, next) => {
    if (!res.headersSent && servingFile(res)) {
      for (const name of [...FILE_HEADERS, ...Object.keys(pageHeaders)]) res.removeHeader(name);
      for (const [name, value] of Object.entries(apiHeaders)) res.setHeader(name, value);
    }
    next(error);
  };
  return [files, refused];
}
