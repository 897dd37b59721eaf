// Certificate rotation without a restart (common/src/grpc/tls.ts): a service re-reads its CA,
// certificate and key every TLS_REFRESH_INTERVAL_MS, and every new connection gets what the files say.
// One odds service (it needs no database) runs on a PKI of this file's own, refreshed every 200 ms;
// the tests replace the files the way the README says (by rename, key first) and watch new TLS
// connections to the gRPC port: the certificate the service presents, and whether it accepts the
// client's. Serial: each test starts from the files the one before left.
import { HealthChecker, type TlsFiles } from "@pokerodds/common";
import { stopChildren, type Child } from "@pokerodds/launcher/child";
import { createCa, ensurePki, issueCertificate, type CertificateAuthority } from "@pokerodds/launcher/pki";
import { freePorts } from "@pokerodds/launcher/ports";
import test from "ava";
import { X509Certificate } from "node:crypto";
import { mkdtemp, readFile, rename, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { connect } from "node:tls";
import { spawnBackend } from "../helpers/grpc-services.js";

const REFRESH_MS = 200;
/** How soon a change must show on new connections: a few refresh intervals, generous for a loaded machine. */
const VISIBLE_WITHIN_MS = 3_000;

interface Issued {
  certPem: string;
  keyPem: string;
}

let dir: string;
let port: number;
let odds: Child;
let ca1: CertificateAuthority;
let ca1Pem: string;
/** The gateway's client certificate from the first CA. */
let gateway1: Issued;
/** What the odds service was started with. */
let odds1: Issued;

const paths = () => ({
  caFile: join(dir, "ca.crt"),
  certFile: join(dir, "odds.crt"),
  keyFile: join(dir, "odds.key"),
});

/** As the launcher writes them: a temporary file and a rename, so no read sees half a file. */
async function writeAtomic(path: string, content: string): Promise<void> {
  const temporary = `${path}.tmp`;
  await writeFile(temporary, content, { mode: 0o600 });
  await rename(temporary, path);
}

/** The service's new key and certificate, key first (README, "Rotation"). */
async function installOdds(issued: Issued): Promise<void> {
  await writeAtomic(paths().keyFile, issued.keyPem);
  await writeAtomic(paths().certFile, issued.certPem);
}

const fingerprint = (pem: string) => new X509Certificate(pem).fingerprint256;

/**
 * One CA file trusting several CAs. Each PEM must end with a newline: @peculiar/x509's PEM (and so
 * the launcher's ca.crt) has none, and two glued without one parse as no certificate at all.
 */
const bundle = (...pems: string[]) => pems.map((pem) => (pem.endsWith("\n") ? pem : `${pem}\n`)).join("");

interface Probe {
  /** The service answered HTTP/2 over the connection: it accepted the client's certificate. */
  accepted: boolean;
  /** The certificate the service presented, if the handshake got that far. */
  served?: X509Certificate;
  error?: string;
}

// The client's half of an HTTP/2 connection start: the preface and an empty SETTINGS frame.
const PREFACE = Buffer.concat([
  Buffer.from("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"),
  Buffer.from([0, 0, 0, 4, 0, 0, 0, 0, 0]),
]);

/**
 * A new TLS connection to the service, trusting `trust` and presenting `client`. With TLS 1.3 the
 * client sees the server's certificate before the server has judged the client's, so acceptance is
 * the service's first HTTP/2 bytes; a refusal is an alert (an error) or a close instead.
 */
function probe(trust: string, client: Issued, timeoutMs = 3_000): Promise<Probe> {
  return new Promise((resolve) => {
    let served: X509Certificate | undefined;
    const socket = connect({
      host: "127.0.0.1",
      port,
      ca: trust,
      cert: client.certPem,
      key: client.keyPem,
      ALPNProtocols: ["h2"],
      // Identity is the URI SAN, which tls.ts checks; the chain is still verified against `trust`.
      checkServerIdentity: () => undefined,
    });
    const done = (result: Probe) => {
      clearTimeout(timer);
      socket.destroy();
      resolve({ ...result, served });
    };
    const timer = setTimeout(() => done({ accepted: false, error: "no answer" }), timeoutMs);
    socket.once("secureConnect", () => {
      served = socket.getPeerX509Certificate();
      socket.write(PREFACE);
    });
    socket.once("data", () => done({ accepted: true }));
    socket.once("error", (error) => done({ accepted: false, error: error.message }));
    socket.once("close", () => done({ accepted: false, error: "closed" }));
  });
}

/** Probes until `wanted` holds; answers the time it took, or fails the test with the last probe. */
async function within(what: string, next: () => Promise<Probe>, wanted: (probe: Probe) => boolean): Promise<number> {
  const started = performance.now();
  let last: Probe | undefined;
  while (performance.now() - started < VISIBLE_WITHIN_MS) {
    last = await next();
    if (wanted(last)) return performance.now() - started;
    await sleep(25);
  }
  throw new Error(`${what}: not within ${VISIBLE_WITHIN_MS} ms; last probe ${JSON.stringify(last)}`);
}

/** A gRPC health check of the service as a client with these files (a new channel each time). */
async function healthAs(files: { caPem: string; client: Issued }, name: string): Promise<string> {
  const clientFiles: TlsFiles = {
    caFile: join(dir, `${name}-ca.crt`),
    certFile: join(dir, `${name}.crt`),
    keyFile: join(dir, `${name}.key`),
  };
  await writeAtomic(clientFiles.caFile, files.caPem);
  await writeAtomic(clientFiles.certFile, files.client.certPem);
  await writeAtomic(clientFiles.keyFile, files.client.keyPem);
  const checker = new HealthChecker(`127.0.0.1:${port}`, clientFiles, "odds");
  try {
    return await checker.check("", 3_000);
  } finally {
    checker.close();
  }
}

test.before(async () => {
  dir = await mkdtemp(join(tmpdir(), "pokerodds-cert-reload-"));
  ca1 = await createCa("cert-reload CA 1");
  ca1Pem = ca1.cert.toString("pem");
  odds1 = await issueCertificate(ca1, "odds");
  gateway1 = await issueCertificate(ca1, "gateway");
  await writeAtomic(paths().caFile, ca1Pem);
  await installOdds(odds1);
  [port] = (await freePorts(1)) as [number];
  odds = spawnBackend("odds", port, {
    TLS_CA_FILE: paths().caFile,
    TLS_CERT_FILE: paths().certFile,
    TLS_KEY_FILE: paths().keyFile,
    TLS_REFRESH_INTERVAL_MS: String(REFRESH_MS),
    ODDS_WORKERS: "1",
  });
  for (const deadline = Date.now() + 30_000; ; await sleep(100)) {
    if ((await healthAs({ caPem: ca1Pem, client: gateway1 }, "start")) === "SERVING") break;
    if (Date.now() > deadline) throw new Error("the odds service did not start");
  }
});

test.after.always(async () => {
  if (odds) await stopChildren([[odds]], 5_000);
  if (dir) await rm(dir, { recursive: true, force: true });
});

test.serial(
  "a re-issued certificate is served to new connections within the refresh interval, without a restart",
  async (t) => {
    const before = await probe(ca1Pem, gateway1);
    t.true(before.accepted, before.error);
    t.is(before.served?.fingerprint256, fingerprint(odds1.certPem));

    const reissued = await issueCertificate(ca1, "odds");
    t.not(new X509Certificate(reissued.certPem).serialNumber, new X509Certificate(odds1.certPem).serialNumber);
    await installOdds(reissued);
    const tookMs = await within(
      "the new certificate served",
      () => probe(ca1Pem, gateway1),
      (p) => p.accepted && p.served?.fingerprint256 === fingerprint(reissued.certPem),
    );
    t.log(
      `new certificate (serial ${new X509Certificate(reissued.certPem).serialNumber}) served after ${tookMs.toFixed(0)} ms`,
    );

    // The same process, and gRPC works over a new channel.
    t.true(odds.alive());
    t.is(await healthAs({ caPem: ca1Pem, client: gateway1 }, "after-reissue"), "SERVING");
    odds1 = reissued;
  },
);

test.serial(
  "the CA is rotated through a bundle: both CAs trusted, new certificates, then the old CA's client certificates refused",
  async (t) => {
    const ca2 = await createCa("cert-reload CA 2");
    const ca2Pem = ca2.cert.toString("pem");
    const gateway2 = await issueCertificate(ca2, "gateway");
    // Before the rotation, the old CA alone is trusted: a client certificate of the new CA is refused.
    const early = await probe(ca1Pem, gateway2);
    t.false(early.accepted, "a client certificate of a CA not yet trusted was accepted");

    // 1. Every process trusts both CAs (the service's file here; the clients' trust is `trust` below).
    await writeAtomic(paths().caFile, bundle(ca1Pem, ca2Pem));
    const bundleMs = await within(
      "the new CA's client certificate accepted",
      () => probe(ca1Pem, gateway2),
      (p) => p.accepted,
    );
    t.true((await probe(ca1Pem, gateway1)).accepted, "the old CA's client certificate must still be accepted");

    // 2. The service gets a certificate of the new CA; a client trusting both accepts it.
    const odds2 = await issueCertificate(ca2, "odds");
    await installOdds(odds2);
    const certMs = await within(
      "the new CA's service certificate served",
      () => probe(bundle(ca1Pem, ca2Pem), gateway2),
      (p) => p.accepted && p.served?.fingerprint256 === fingerprint(odds2.certPem),
    );
    t.is(new X509Certificate(odds2.certPem).issuer, ca2.cert.subject);

    // 3. The old CA is dropped: its client certificates are refused, the new CA's accepted.
    await writeAtomic(paths().caFile, ca2Pem);
    const dropMs = await within(
      "the old CA's client certificate refused",
      () => probe(ca2Pem, gateway1),
      // The service's certificate was seen (it is up and trusted): the refusal is of the client's.
      (p) => !p.accepted && p.served?.fingerprint256 === fingerprint(odds2.certPem),
    );
    const refused = await probe(ca2Pem, gateway1);
    t.false(refused.accepted);
    t.log(`old-CA client certificate refused: ${refused.error}`);
    t.true((await probe(ca2Pem, gateway2)).accepted);
    t.log(
      `bundle read after ${bundleMs.toFixed(0)} ms, new certificate after ${certMs.toFixed(0)} ms, old CA gone after ${dropMs.toFixed(0)} ms`,
    );

    // The same through gRPC, each over a new channel.
    t.is(await healthAs({ caPem: ca2Pem, client: gateway1 }, "old-ca-client"), "UNREACHABLE");
    t.is(await healthAs({ caPem: ca2Pem, client: gateway2 }, "new-ca-client"), "SERVING");
    // A client that still trusts only the old CA refuses the service's new certificate.
    t.is(await healthAs({ caPem: ca1Pem, client: gateway1 }, "old-trust"), "UNREACHABLE");
    t.true(odds.alive());
  },
);

// The bundle an operator makes with `cat old/ca.crt new/ca.crt > ca.crt` during a rotation: each PEM
// file ends with a newline (launcher/src/pki.ts), else "-----END CERTIFICATE----------BEGIN" would
// glue on one line, Node would read no CA at all and the service would refuse every client.
test.serial("a CA bundle made with cat from the launcher's ca.crt files trusts both CAs", async (t) => {
  const a = await ensurePki(join(dir, "pki-a"));
  const b = await ensurePki(join(dir, "pki-b"));
  const read = (path: string) => readFile(path, "utf8");
  const caA = await read(a.caFile);
  await installOdds({ certPem: await read(a.files.odds.certFile), keyPem: await read(a.files.odds.keyFile) });
  await writeAtomic(paths().caFile, caA + (await read(b.caFile)));
  const client = { certPem: await read(a.files.gateway.certFile), keyPem: await read(a.files.gateway.keyFile) };
  await within(
    "a client certificate of the bundle's first CA accepted",
    () => probe(caA, client),
    (p) => p.accepted,
  );
  t.pass();
});
