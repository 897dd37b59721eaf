// The smallest real gRPC service, for tests of the transport's defences (connection caps, handshake
// timeouts): an in-process odds server over mutual TLS whose Deal always answers game STUB_GAME_ID,
// and the gateway's client of it.
import { createClient, ODDS_ACCESS, startGrpcServer, unary } from "@pokerodds/common";
import {
  DealRequest,
  DealResponse,
  OddsServiceClient,
  OddsServiceService,
} from "@pokerodds/common/generated/pokerodds/odds/v1/odds";
import { pino } from "pino";
import { tlsAs } from "./pki.js";

export const STUB_GAME_ID = "G-1";

type StubOptions = Omit<Parameters<typeof startGrpcServer>[1], "logger" | "tls" | "access">;
type ClientOptions = Omit<Parameters<typeof createClient>[3], "tls">;

const logger = pino({ level: "silent" });

export function startOddsStub(options: StubOptions) {
  return startGrpcServer(
    {
      name: "pokerodds.odds.v1.OddsService",
      protoFile: "pokerodds/odds/v1/odds.proto",
      definition: OddsServiceService,
      implementation: { deal: unary(logger, "Deal", async () => DealResponse.fromPartial({ gameId: STUB_GAME_ID })) },
    },
    { ...options, logger, tls: tlsAs("odds"), access: ODDS_ACCESS },
  );
}

/** A client of the stub on 127.0.0.1:port with the gateway's certificate. */
export function oddsStubClient(port: number, options: ClientOptions) {
  const client = createClient(OddsServiceClient, ["deal"], `127.0.0.1:${port}`, { ...options, tls: tlsAs("gateway") });
  return { raw: client.raw, deal: () => client.call.deal(DealRequest.fromPartial({ numberOfHands: 2 })) };
}
