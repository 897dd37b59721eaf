// One test CA per test process (mutual TLS, as in production): every spawned service gets its own
// certificate, and test clients call each RPC as a service allowed to call it.
import {
  createClient,
  type ClientSettings,
  type PromiseClient,
  type ServiceIdentity,
  type TlsFiles,
} from "@pokerodds/common";
import { ensurePki, tlsEnvironment } from "@pokerodds/launcher/pki";
import type { Client } from "@grpc/grpc-js";
import { rmSync } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

const dir = await mkdtemp(join(tmpdir(), "pokerodds-pki-"));
process.once("exit", () => rmSync(dir, { recursive: true, force: true }));

const testPki = await ensurePki(dir);

/** TLS_* for a process that is `identity`. */
export function tlsEnv(identity: ServiceIdentity): Record<string, string> {
  return tlsEnvironment(testPki.files[identity]);
}

export function tlsAs(identity: ServiceIdentity): TlsFiles {
  return testPki.files[identity];
}

type Ctor<C> = Parameters<typeof createClient<C & Client>>[0];

/**
 * A client of one service whose every method is called as the first identity the service's access
 * policy allows for it (e.g. wallet: debit as the table, deposit as the gateway).
 */
export function policyClient<C extends Client>(
  Ctor: Ctor<C>,
  policy: Readonly<Record<string, readonly ServiceIdentity[]>>,
  address: string,
  settings: Omit<ClientSettings, "tls">,
): { raw: { close(): void }; call: PromiseClient<C> } {
  const byIdentity = new Map<ServiceIdentity, string[]>();
  for (const [method, allowed] of Object.entries(policy)) {
    const identity = allowed[0];
    if (identity) byIdentity.set(identity, [...(byIdentity.get(identity) ?? []), method]);
  }
  const call = {} as Record<string, unknown>;
  const clients = [...byIdentity].map(([identity, methods]) => {
    const retryUnavailable = settings.retryUnavailable?.filter((method) => methods.includes(method));
    const client = createClient(Ctor, methods, address, { ...settings, retryUnavailable, tls: tlsAs(identity) });
    for (const method of methods) call[method] = (client.call as Record<string, unknown>)[method];
    return client;
  });
  return {
    raw: { close: () => clients.forEach((client) => client.raw.close()) },
    call: call as PromiseClient<C>,
  };
}
