// HEALTH_PORT: Kubernetes' gRPC probes cannot present a client certificate, so a service also
// serves grpc.health.v1 in plaintext on a second port. That port shares the main server's status
// (NOT_SERVING shows there too) and serves nothing else: not the service's RPCs, not reflection.
// Neither port serves health's Watch, a stream held for as long as its caller likes.
import {
  credentials,
  loadPackageDefinition,
  Metadata,
  status,
  type ChannelCredentials,
  type ChannelOptions,
  type Client,
  type ClientDuplexStream,
  type ClientReadableStream,
  type ServiceError,
} from "@grpc/grpc-js";
import { loadSync } from "@grpc/proto-loader";
import {
  channelCredentials,
  createClient,
  HEALTH_CALLS_PER_CONNECTION,
  HEALTH_REQUEST_MAX_BYTES,
  LIVENESS_CHECK,
  ODDS_ACCESS,
  readGrpcNetwork,
  startGrpcServer,
  TRUST_DOMAIN,
  type RunningGrpcServer,
} from "@pokerodds/common";
import {
  DealResponse,
  OddsServiceClient,
  OddsServiceService,
} from "@pokerodds/common/generated/pokerodds/odds/v1/odds";
import { healthClient } from "@pokerodds/common/grpc/health";
import test from "ava";
import { connect } from "node:http2";
import { once } from "node:events";
import { fileURLToPath } from "node:url";
import { pino } from "pino";
import { tlsAs, tlsEnv } from "../helpers/pki.js";

const ODDS = "pokerodds.odds.v1.OddsService";
const logger = pino({ level: "silent" });

/** What a kubelet probe sees: a plaintext Check, no certificate. The status, or the error's code. */
async function probe(port: number, service = "", creds = credentials.createInsecure()): Promise<string | number> {
  const client = healthClient(`127.0.0.1:${port}`, creds);
  try {
    return await new Promise((resolve) =>
      client.check({ service }, { deadline: Date.now() + 3000 }, (error, response) =>
        resolve(error ? error.code : (response?.status ?? "none")),
      ),
    );
  } finally {
    client.close();
  }
}

const Reflection = (
  loadPackageDefinition(
    loadSync("reflection/v1alpha/reflection.proto", {
      includeDirs: [fileURLToPath(new URL("../../node_modules/@grpc/reflection/build/proto/grpc/", import.meta.url))],
      keepCase: true,
    }),
  ) as unknown as {
    grpc: {
      reflection: {
        v1alpha: {
          ServerReflection: new (
            address: string,
            creds: ChannelCredentials,
            options: ChannelOptions,
          ) => Client & { serverReflectionInfo(): ClientDuplexStream<object, object> };
        };
      };
    };
  }
).grpc.reflection.v1alpha.ServerReflection;

/** A reflection ListServices call: OK when it answers, or the error's code. */
async function listServices(port: number, creds = credentials.createInsecure()): Promise<number> {
  // The name TLS asks for, as common's clients send it: an IP address there is deprecated (DEP0123).
  const client = new Reflection(`127.0.0.1:${port}`, creds, { "grpc.ssl_target_name_override": TRUST_DOMAIN });
  try {
    return await new Promise<number>((resolve) => {
      const stream = client.serverReflectionInfo();
      stream.on("error", (error: ServiceError) => resolve(error.code));
      stream.on("data", () => {
        resolve(status.OK);
        stream.cancel();
      });
      stream.write({ list_services: "" });
    });
  } finally {
    client.close();
  }
}

/** A grpc.health.v1 Watch: the code it ends with, or "data" once it streams a status. */
async function watch(port: number, creds: ChannelCredentials): Promise<number | "data"> {
  const client = healthClient(`127.0.0.1:${port}`, creds, {
    "grpc.ssl_target_name_override": TRUST_DOMAIN,
  }) as unknown as Client & { watch(request: { service: string }): ClientReadableStream<unknown> };
  try {
    return await new Promise((resolve) => {
      const stream = client.watch({ service: "" });
      stream.on("error", (error: ServiceError) => resolve(error.code));
      stream.on("data", () => {
        resolve("data");
        stream.cancel();
      });
    });
  } finally {
    client.close();
  }
}

/** An odds server whose Deal waits for `hold`; `entered` is told when a Deal has reached it. */
async function startOdds(hold?: Promise<void>, entered?: () => void): Promise<RunningGrpcServer> {
  return startGrpcServer(
    {
      name: ODDS,
      protoFile: "pokerodds/odds/v1/odds.proto",
      definition: OddsServiceService,
      implementation: {
        deal: (_call: unknown, callback: (error: null, response: DealResponse) => void) => {
          entered?.();
          void (hold ?? Promise.resolve()).then(() => callback(null, DealResponse.fromPartial({ hands: ["AsKs"] })));
        },
      },
    },
    { port: 0, healthPort: 0, logger, tls: tlsAs("odds"), access: ODDS_ACCESS, reflection: true },
  );
}

test("the health port answers SERVING and NOT_SERVING in plaintext, as the main server reports", async (t) => {
  const server = await startOdds();
  try {
    t.truthy(server.healthPort);
    t.not(server.healthPort, server.port);
    const healthPort = server.healthPort!;
    t.is(await probe(healthPort), "NOT_SERVING");
    t.is(await probe(healthPort, ODDS), "NOT_SERVING");
    server.setServing(true);
    t.is(await probe(healthPort), "SERVING");
    t.is(await probe(healthPort, ODDS), "SERVING");
    server.setServing(false);
    t.is(await probe(healthPort), "NOT_SERVING");
    t.is(await probe(healthPort, ODDS), "NOT_SERVING");
    t.is(await probe(healthPort, "pokerodds.wallet.v1.WalletService"), status.NOT_FOUND);
    // Liveness follows nothing but the process: a database outage (NOT_SERVING) restarts nothing.
    t.is(await probe(healthPort, LIVENESS_CHECK), "SERVING");

    // The main port still speaks only mutual TLS: a plaintext probe there gets nowhere.
    t.is(await probe(server.port), status.UNAVAILABLE);
  } finally {
    await server.shutdown(1000);
  }
});

test("neither port serves Watch, a stream held open: Check alone", async (t) => {
  const server = await startOdds();
  server.setServing(true);
  try {
    t.is(await watch(server.healthPort!, credentials.createInsecure()), status.UNIMPLEMENTED);
    t.is(await watch(server.port, channelCredentials(tlsAs("gateway"))), status.UNIMPLEMENTED);
    t.is(await probe(server.healthPort!), "SERVING");
  } finally {
    await server.shutdown(1000);
  }
});

test("the health port serves nothing but health: not the service's RPCs, not reflection", async (t) => {
  const server = await startOdds();
  server.setServing(true);
  const healthPort = server.healthPort!;
  try {
    // Plaintext, no certificate: the RPC is not there at all.
    const plain = new OddsServiceClient(`127.0.0.1:${healthPort}`, credentials.createInsecure());
    const code = await new Promise<number | undefined>((resolve) =>
      plain.deal({ numberOfHands: 1 }, new Metadata(), { deadline: Date.now() + 3000 }, (error) =>
        resolve(error ? error.code : status.OK),
      ),
    );
    plain.close();
    t.is(code, status.UNIMPLEMENTED);

    // Reflection is on for the main server (seen over mutual TLS), absent from the health port.
    t.is(await listServices(server.port, channelCredentials(tlsAs("gateway"))), status.OK);
    t.is(await listServices(healthPort), status.UNIMPLEMENTED);

    // The same RPC on the main port, as an allowed caller, works: the server itself is fine.
    const gateway = createClient(OddsServiceClient, Object.keys(OddsServiceService), `127.0.0.1:${server.port}`, {
      defaultDeadlineMs: 3000,
      tls: tlsAs("gateway"),
    });
    t.deepEqual((await gateway.call.deal({ numberOfHands: 1 })).hands, ["AsKs"]);
    gateway.raw.close();
  } finally {
    await server.shutdown(1000);
  }
});

test("while the server drains the health port reports NOT_SERVING, then closes with it", async (t) => {
  let release!: () => void;
  let entered!: () => void;
  const arrived = new Promise<void>((resolve) => (entered = resolve));
  const server = await startOdds(new Promise<void>((resolve) => (release = resolve)), entered);
  // Whatever fails below, nothing is left open to keep the test's process from ending (a failure here
  // once held a CI worker): the call is let go, the client closed, the server cut (teardowns run last first).
  t.teardown(() => server.shutdown(0));
  server.setServing(true);
  const healthPort = server.healthPort!;
  t.is(await probe(healthPort), "SERVING");

  // A call in flight keeps the server draining.
  const gateway = createClient(OddsServiceClient, Object.keys(OddsServiceService), `127.0.0.1:${server.port}`, {
    defaultDeadlineMs: 10_000,
    tls: tlsAs("gateway"),
  });
  t.teardown(() => {
    release();
    gateway.raw.close();
  });
  const inFlight = gateway.call.deal({ numberOfHands: 1 });
  // Until the call has reached the server (a fixed 200 ms was too short for a busy machine's TLS
  // handshake: the server then drained nothing and closed at once).
  await arrived;
  const stopped = server.shutdown(10_000);
  t.is(await probe(healthPort), "NOT_SERVING");
  t.is(await probe(healthPort, ODDS), "NOT_SERVING");
  t.is(await probe(healthPort, LIVENESS_CHECK), "SERVING", "a draining process is alive");

  release();
  t.deepEqual((await inFlight).hands, ["AsKs"]);
  await stopped;
  t.is(await probe(healthPort), status.UNAVAILABLE);
});

test("without HEALTH_PORT there is no health port", async (t) => {
  const server = await startGrpcServer(
    {
      name: ODDS,
      protoFile: "pokerodds/odds/v1/odds.proto",
      definition: OddsServiceService,
      implementation: {},
    },
    { port: 0, logger, tls: tlsAs("odds"), access: ODDS_ACCESS },
  );
  t.is(server.healthPort, undefined);
  await server.shutdown(1000);
});

test("readGrpcNetwork reads HEALTH_PORT (a port number; unset: none)", (t) => {
  const env = tlsEnv("odds");
  t.is(readGrpcNetwork(env).healthPort, undefined);
  t.is(readGrpcNetwork({ ...env, HEALTH_PORT: "" }).healthPort, undefined);
  t.is(readGrpcNetwork({ ...env, HEALTH_PORT: "8086" }).healthPort, 8086);
  t.throws(() => readGrpcNetwork({ ...env, HEALTH_PORT: "grpc" }), { message: /HEALTH_PORT/ });
  t.throws(() => readGrpcNetwork({ ...env, HEALTH_PORT: "70000" }), { message: /HEALTH_PORT/ });
  // Not "none" (unset is): port 0 would bind a plaintext port at random, which no probe can find.
  t.throws(() => readGrpcNetwork({ ...env, HEALTH_PORT: "0" }), { message: /HEALTH_PORT must be between 1 and 65535/ });
});

test("readGrpcNetwork reads GRPC_MAX_CONNECTIONS_PER_ADDRESS (256 unless set; 0: no cap)", (t) => {
  const env = tlsEnv("odds");
  t.is(readGrpcNetwork(env).connectionsPerAddress, 256);
  t.is(readGrpcNetwork({ ...env, GRPC_MAX_CONNECTIONS_PER_ADDRESS: "0" }).connectionsPerAddress, 0);
  t.is(readGrpcNetwork({ ...env, GRPC_MAX_CONNECTIONS_PER_ADDRESS: "1000" }).connectionsPerAddress, 1000);
  t.throws(() => readGrpcNetwork({ ...env, GRPC_MAX_CONNECTIONS_PER_ADDRESS: "many" }), {
    message: /GRPC_MAX_CONNECTIONS_PER_ADDRESS/,
  });
});

test("a connection to the health port holds a few calls at once, each of a few bytes: no certificate buys memory", async (t) => {
  const server = await startOdds();
  server.setServing(true);
  try {
    const session = connect(`http://127.0.0.1:${server.healthPort!}`);
    t.teardown(() => session.destroy());
    await once(session, "remoteSettings");
    t.is(session.remoteSettings.maxConcurrentStreams, HEALTH_CALLS_PER_CONNECTION);
    t.is(await probe(server.healthPort!, "x".repeat(HEALTH_REQUEST_MAX_BYTES)), status.RESOURCE_EXHAUSTED);
    t.is(await probe(server.healthPort!), "SERVING");
  } finally {
    await server.shutdown(1000);
  }
});
