// The development PKI of `npm start`: a private CA and one certificate per service, each naming
// its service in a SPIFFE-style URI SAN (spiffe://pokerodds/<service>), under <DATA_DIR>/pki.
// Made on first start, kept afterwards; a certificate near its end (or not from the CA on disk) is
// issued again at start, and the services pick new files up without a restart (tls.ts).
// In Kubernetes, cert-manager plays this part (deploy/k8s).
import { pkiFiles } from "@pokerodds/common/stack-layout";
import "reflect-metadata";
import * as x509 from "@peculiar/x509";
import { SERVICE_IDENTITIES, spiffeId, type ServiceIdentity, type TlsFiles } from "@pokerodds/common/grpc/tls";
import { randomUUID, webcrypto } from "node:crypto";
import { privateDirectory } from "@pokerodds/common/private-directory";
import { chmod, readFile, rename, writeFile } from "node:fs/promises";

type CryptoKey = webcrypto.CryptoKey;
type CryptoKeyPair = webcrypto.CryptoKeyPair;
const crypto = webcrypto;
x509.cryptoProvider.set(crypto);

const ALGORITHM = { name: "ECDSA", namedCurve: "P-256", hash: "SHA-256" } as const;
const DAY_MS = 86_400_000;

export interface CertificateAuthority {
  cert: x509.X509Certificate;
  keys: CryptoKeyPair;
}

export interface Pki {
  dir: string;
  caFile: string;
  /** Each service's certificate, key and the CA, as TLS_* expect them. */
  files: Record<ServiceIdentity, TlsFiles>;
}

/** 10 years for the CA, 1 year for a service certificate. */
const CA_VALIDITY_DAYS = 3650;
const CERT_VALIDITY_DAYS = 365;
/** A certificate with fewer days left is issued again. */
const RENEW_BEFORE_DAYS = 30;

export async function createCa(commonName = "pokerodds development CA"): Promise<CertificateAuthority> {
  const keys = (await crypto.subtle.generateKey(ALGORITHM, true, ["sign", "verify"])) as CryptoKeyPair;
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    name: `CN=${commonName}`,
    notBefore: new Date(Date.now() - 60_000),
    notAfter: new Date(Date.now() + CA_VALIDITY_DAYS * DAY_MS),
    signingAlgorithm: ALGORITHM,
    keys,
    extensions: [
      new x509.BasicConstraintsExtension(true, 0, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
    ],
  });
  return { cert, keys };
}

/** A certificate for `identity`, usable as server and as client, signed by `ca`. */
export async function issueCertificate(
  ca: CertificateAuthority,
  identity: ServiceIdentity,
): Promise<{ certPem: string; keyPem: string }> {
  const keys = (await crypto.subtle.generateKey(ALGORITHM, true, ["sign", "verify"])) as CryptoKeyPair;
  const uri = spiffeId(identity);
  const cert = await x509.X509CertificateGenerator.create({
    subject: `CN=${uri.split("/").pop()}`,
    issuer: ca.cert.subject,
    notBefore: new Date(Date.now() - 60_000),
    notAfter: new Date(Date.now() + CERT_VALIDITY_DAYS * DAY_MS),
    signingAlgorithm: ALGORITHM,
    publicKey: keys.publicKey,
    signingKey: ca.keys.privateKey,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.keyAgreement, true),
      new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth, x509.ExtendedKeyUsage.clientAuth]),
      new x509.SubjectAlternativeNameExtension([{ type: "url", value: uri }]),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
      await x509.AuthorityKeyIdentifierExtension.create(ca.keys.publicKey),
    ],
  });
  return { certPem: cert.toString("pem"), keyPem: await keyPem(keys.privateKey) };
}

async function keyPem(key: CryptoKey): Promise<string> {
  const der = await crypto.subtle.exportKey("pkcs8", key);
  return x509.PemConverter.encode(der, "PRIVATE KEY");
}

/**
 * Writes through a temporary file and a rename: a reader never sees half a file. PEM text ends with a
 * newline, so that files joined with `cat` (a CA bundle during a rotation) stay valid PEM.
 */
async function writeAtomic(path: string, content: string, mode: number): Promise<void> {
  // A new file of its own ("wx"), never one a name guessed beforehand leads elsewhere.
  const temporary = `${path}.${randomUUID()}.tmp`;
  await writeFile(temporary, content.endsWith("\n") ? content : `${content}\n`, { mode, flag: "wx" });
  await chmod(temporary, mode);
  await rename(temporary, path);
}

/** The CA's own certificate and key are named as an identity's are. */
const CA = "ca";

async function loadCa(dir: string): Promise<CertificateAuthority | undefined> {
  try {
    const files = pkiFiles(dir, CA);
    const cert = new x509.X509Certificate(await readFile(files.certFile, "utf8"));
    const der = x509.PemConverter.decodeFirst(await readFile(files.keyFile, "utf8"));
    const privateKey = await crypto.subtle.importKey("pkcs8", der, ALGORITHM, true, ["sign"]);
    const publicKey = await cert.publicKey.export(ALGORITHM, ["verify"], crypto);
    if (cert.notAfter.getTime() < Date.now() + DAY_MS) return undefined;
    return { cert, keys: { privateKey, publicKey } };
  } catch {
    return undefined;
  }
}

/** Whether the certificate on disk is from `ca`, names `identity` and has more than `renewMs` left. */
async function isCurrent(path: string, ca: CertificateAuthority, identity: ServiceIdentity, renewMs: number) {
  try {
    const cert = new x509.X509Certificate(await readFile(path, "utf8"));
    const san = cert.getExtension(x509.SubjectAlternativeNameExtension);
    return (
      cert.notAfter.getTime() - Date.now() > renewMs &&
      (await cert.verify({ publicKey: ca.keys.publicKey, signatureOnly: true }, crypto)) &&
      Boolean(san?.names.items.some((name) => name.type === "url" && name.value === spiffeId(identity)))
    );
  } catch {
    return false;
  }
}

/** The CA and every service's certificate under `dir`: made when missing, renewed when due. */
export async function ensurePki(dir: string): Promise<Pki> {
  await privateDirectory(dir);
  let ca = await loadCa(dir);
  const caFiles = pkiFiles(dir, CA);
  if (!ca) {
    ca = await createCa();
    await writeAtomic(caFiles.keyFile, await keyPem(ca.keys.privateKey), 0o600);
    await writeAtomic(caFiles.certFile, ca.cert.toString("pem"), 0o644);
  }
  const renewMs = RENEW_BEFORE_DAYS * DAY_MS;
  const files = {} as Record<ServiceIdentity, TlsFiles>;
  for (const identity of SERVICE_IDENTITIES) {
    const { caFile, certFile, keyFile } = pkiFiles(dir, identity);
    if (!(await isCurrent(certFile, ca, identity, renewMs))) {
      const issued = await issueCertificate(ca, identity);
      // Key first: a reader pairing the new certificate with the old key would fail until the next read.
      await writeAtomic(keyFile, issued.keyPem, 0o600);
      await writeAtomic(certFile, issued.certPem, 0o644);
    }
    files[identity] = { caFile, certFile, keyFile };
  }
  return { dir, caFile: caFiles.certFile, files };
}

/** The environment that points a process at its TLS files. */
export function tlsEnvironment(files: TlsFiles): Record<string, string> {
  return { TLS_CA_FILE: files.caFile, TLS_CERT_FILE: files.certFile, TLS_KEY_FILE: files.keyFile };
}
