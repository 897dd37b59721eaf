import { credentials, loadPackageDefinition, type Client, type ServiceError } from "@grpc/grpc-js";
import { loadSync } from "@grpc/proto-loader";
import { protoPath } from "grpc-health-check";

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
        v1: { Health: new (address: string, creds: ReturnType<typeof credentials.createInsecure>) => HealthClient };
      };
    };
  }
).grpc.health.v1.Health;

/** Asks a server's grpc.health.v1 service about one service name ("" for the whole server). */
export class HealthChecker {
  private readonly client: HealthClient;
  constructor(address: string) {
    this.client = new HealthCtor(address, credentials.createInsecure());
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
