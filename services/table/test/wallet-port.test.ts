// The table's wallet adapter (connectWallet) against a wallet that predates GetPersonalTable: for a
// rollout's minutes new table replicas meet old wallet ones, and a player's seats must still name
// the personal table, which GetPlayer names too.
import { Server, ServerCredentials, status, type UntypedServiceImplementation } from "@grpc/grpc-js";
import { Role, WalletServiceService, type Profile } from "@pokerodds/common/generated/pokerodds/wallet/v1/wallet";
import test from "ava";
import { connectWallet } from "../src/dependencies.js";

const profile = (playerId: string, personalTableId?: number): Profile => ({
  playerId,
  username: "",
  displayName: playerId,
  accountBalanceCents: 0,
  avatarImageUrl: "",
  role: Role.ROLE_PAYING_USER,
  isActive: true,
  personalTableId,
  accountNotOpened: false,
});

/** A wallet serving only GetPlayer (anything else is UNIMPLEMENTED): "owner" has table 1007. */
async function oldWallet(asked: string[]): Promise<{ address: string; stop(): void }> {
  const server = new Server();
  const implementation = {
    getPlayer: (
      call: { request: { playerId: string } },
      done: (error: unknown, value?: { profile: Profile }) => void,
    ) => {
      asked.push(call.request.playerId);
      const { playerId } = call.request;
      if (playerId === "nobody") return done({ code: status.NOT_FOUND, details: "no player" });
      done(null, { profile: profile(playerId, playerId === "owner" ? 1007 : undefined) });
    },
  };
  server.addService(WalletServiceService, implementation as unknown as UntypedServiceImplementation);
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync("127.0.0.1:0", ServerCredentials.createInsecure(), (error, bound) =>
      error ? reject(error) : resolve(bound),
    ),
  );
  return { address: `127.0.0.1:${port}`, stop: () => server.forceShutdown() };
}

test("a wallet without GetPersonalTable: the personal table comes from GetPlayer", async (t) => {
  const asked: string[] = [];
  const wallet = await oldWallet(asked);
  const client = connectWallet(wallet.address);
  try {
    t.is(await client.port.personalTable("owner", {}), 1007);
    t.is(await client.port.personalTable("basic", {}), null);
    t.is(await client.port.personalTable("nobody", {}), null);
    t.deepEqual(asked, ["owner", "basic", "nobody"], "each asked of GetPlayer once GetPersonalTable was refused");
  } finally {
    client.close();
    wallet.stop();
  }
});
