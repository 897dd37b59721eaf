import { loadPackageDefinition, type ChannelCredentials, type Client, type ServiceError } from "@grpc/grpc-js";
import { loadSync } from "@grpc/proto-loader";
import { protoPath } from "grpc-health-check";
import { peerChannelOptions, ROUND_ROBIN } from "./client.js";
import { channelCredentials, channelCredentialsFromEnv, type ServiceIdentity, type TlsFiles } from "./tls.js";

type HealthClient = Client & {
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

type Health = "SERVING" | "NOT_SERVING" | "UNREACHABLE";

/**
 * Replicas asked, one after another, before a service counts as not serving. A pick-first channel
 * asked one replica alone: while it drained or had lost its database, the service was reported down
 * though the others served its calls (a review of the Kubernetes manifests, three replicas each).
 */
const REPLICAS_ASKED = 3;

/**
 * Asks a server's grpc.health.v1 service about one service name ("" for the whole server): SERVING
 * when any of the first REPLICAS_ASKED replicas the address resolves to serves, as calls spread
 * over them (round robin).
 */
export class HealthChecker {
  private readonly client: HealthClient;
  /**
   * With `tls`, mutual TLS as this process (the server must name `expected` when given); without,
   * TLS_* from the environment, or plaintext where none are set.
   */
  constructor(address: string, tls?: TlsFiles, expected?: ServiceIdentity) {
    const creds = tls ? channelCredentials(tls, expected) : channelCredentialsFromEnv(expected);
    this.client = healthClient(address, creds, {
      ...peerChannelOptions(expected),
      "grpc.service_config": JSON.stringify({ loadBalancingConfig: ROUND_ROBIN }),
    });
  }

  /** Within `timeoutMs` in all: each replica asked has what is left of it. */
  async check(service = "", timeoutMs = 1000): Promise<Health> {
    const deadline = Date.now() + timeoutMs;
    let answer: Health = "UNREACHABLE";
    for (let asked = 0; asked < REPLICAS_ASKED && Date.now() < deadline; asked++) {
      answer = await this.checkOne(service, deadline);
      if (answer === "SERVING") break;
    }
    return answer;
  }

  private checkOne(service: string, deadline: number): Promise<Health> {
    return new Promise((resolve) => {
      this.client.check({ service }, { deadline }, (error, response) => {
        if (error || !response) resolve("UNREACHABLE");
        else resolve(response.status === "SERVING" ? "SERVING" : "NOT_SERVING");
      });
    });
  }

  close(): void {
    this.client.close();
  }
}
