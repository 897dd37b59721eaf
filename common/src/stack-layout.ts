// Where `npm start` keeps its files, for the launcher that writes them and the processes and tools
// that read them: DATA_DIR (default ./data), its pid file with each service's address, and the
// development PKI (a CA and one certificate per service or operator).
import { join, resolve } from "node:path";
import { envString } from "./config.js";
import type { TlsFiles } from "./grpc/tls.js";

/** DATA_DIR as an absolute path; ./data when unset. */
export const dataDirFrom = (env: Record<string, string | undefined> = process.env): string =>
  resolve(envString("DATA_DIR", "./data", env));

/** The launcher's pid file: its pid, each child's, and each service's address. */
export const pidFilePath = (dataDir: string): string => join(dataDir, "pids.json");

/** The development PKI's directory. */
export const pkiDir = (dataDir: string): string => join(dataDir, "pki");

/** The CA and one identity's certificate and key in the development PKI under `dir`. */
export const pkiFiles = (dir: string, identity: string): Omit<TlsFiles, "refreshIntervalMs"> => ({
  caFile: join(dir, "ca.crt"),
  certFile: join(dir, `${identity}.crt`),
  keyFile: join(dir, `${identity}.key`),
});

/** Each process's default port on this machine: the gateway's HTTP API, each service's gRPC. */
export const DEFAULT_PORTS = { gateway: 8080, odds: 50051, wallet: 50052, table: 50053 } as const;

/** A gRPC service's default address, where its own GRPC_PORT's default has it listen. */
export const defaultAddress = (service: "odds" | "wallet" | "table"): string => `127.0.0.1:${DEFAULT_PORTS[service]}`;
