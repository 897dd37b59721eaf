import { loadPackageDefinition, type ChannelCredentials, type Client, type ServiceError } from "@grpc/grpc-js";
import { loadSync } from "@grpc/proto-loader";
import { protoPath } from "grpc-health-check";
import { peerChannelOptions } from "./client.js";
import { channelCredentials, channelCredentialsFromEnv, type ServiceIdentity, type TlsFiles } from "./tls.js";

export type HealthClient = Client & {
  check(
    request: { service: string },
    options: { deadline: number },
    callback: (error: ServiceError | null, response?: { status: string }) => void,
  ): void;
};

const HealthCtor = (
  loadPackageDefinition(loadSync(protoPath, { keepCase: true, enums: String })) as unknown as {
    grpc: {
      health: {
        v1: { Health: new (address: string, creds: ChannelCredentials, options?: object) => HealthClient };
      };
    };
  }
).grpc.health.v1.Health;

/** A raw grpc.health.v1 client, for callers that need its answers and errors as they are (probes, tests). */
export function healthClient(address: string, creds: ChannelCredentials, options?: object): HealthClient {
  return new HealthCtor(address, creds, options);
}

/** Asks a server's grpc.health.v1 service about one service name ("" for the whole server). */
export class HealthChecker {
  private readonly client: HealthClient;
  /**
   * With `tls`, mutual TLS as this process (the server must name `expected` when given); without,
   * TLS_* from the environment, or plaintext where none are set.
   */
  constructor(address: string, tls?: TlsFiles, expected?: ServiceIdentity) {
    const creds = tls ? channelCredentials(tls, expected) : channelCredentialsFromEnv(expected);
    this.client = healthClient(address, creds, peerChannelOptions(expected));
  }

  check(service = "", timeoutMs = 1000): Promise<"SERVING" | "NOT_SERVING" | "UNREACHABLE"> {
    return new Promise((resolve) => {
      this.client.check({ service }, { deadline: Date.now() + timeoutMs }, (error, response) => {
        if (error || !response) resolve("UNREACHABLE");
        else resolve(response.status === "SERVING" ? "SERVING" : "NOT_SERVING");
      });
    });
  }

  close(): void {
    this.client.close();
  }
}
