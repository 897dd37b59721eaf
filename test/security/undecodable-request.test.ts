// A request the generated code cannot decode (here an int64 amount beyond 2^53 - 1, which no number
// holds exactly) is the caller's bad input: INVALID_ARGUMENT to a caller the policy allows, and
// PERMISSION_DENIED, as for any request, to one it refuses. grpc-js alone answered both INTERNAL,
// before the access check (common/src/grpc/access.ts, decodedAfterAccess).
import { Client, Metadata, status, type ServiceError } from "@grpc/grpc-js";
import { channelCredentials, createLogger, startGrpcServer, unary, WALLET_ACCESS } from "@pokerodds/common";
import {
  DebitRequest,
  DebitResponse,
  WalletServiceService,
} from "@pokerodds/common/generated/pokerodds/wallet/v1/wallet";
import test from "ava";
import { tlsAs } from "../helpers/pki.js";

const logger = createLogger("undecodable-request-test");

/** DebitRequest { movement { amountCents: 2^53 + 1 } }, written by hand: the generated code would refuse to. */
function debitOfTooManyCents(): Buffer {
  const varint = (value: bigint) => {
    const bytes: number[] = [];
    for (; value >= 0x80n; value >>= 7n) bytes.push(Number(value & 0x7fn) | 0x80);
    return [...bytes, Number(value)];
  };
  const amount = [0x10, ...varint(2n ** 53n + 1n)]; // Movement field 2 (amount_cents), varint
  return Buffer.from([0x0a, amount.length, ...amount]); // DebitRequest field 1 (movement), bytes
}

/** DebitRequest { movement { idempotencyKey: "key-" + byte } }: one byte that is not UTF-8 (0xff, 0xfe) ends the key. */
function debitWithKeyEndingIn(byte: number): Buffer {
  const key = [...Buffer.from("key-"), byte];
  const movement = [0x1a, key.length, ...key]; // Movement field 3 (idempotency_key), bytes
  return Buffer.from([0x0a, movement.length, ...movement]);
}

/** A wallet server whose Debit counts its calls, with the wallet's access policy. */
async function countingWallet() {
  let handled = 0;
  let lastKey: string | undefined;
  const server = await startGrpcServer(
    {
      name: "pokerodds.wallet.v1.WalletService",
      protoFile: "pokerodds/wallet/v1/wallet.proto",
      definition: WalletServiceService,
      implementation: {
        debit: unary(logger, "Debit", async (request: DebitRequest) => {
          handled++;
          lastKey = request.movement?.idempotencyKey;
          return DebitResponse.fromPartial({});
        }),
      },
    },
    { port: 0, logger, tls: tlsAs("wallet"), access: WALLET_ACCESS },
  );
  const debitAs = async (identity: "table" | "gateway", body: Buffer) => {
    const client = new Client(`127.0.0.1:${server.port}`, channelCredentials(tlsAs(identity), "wallet"));
    // Connected first (the certificates read, the TLS handshake done): a raw client has no retries,
    // and its first call on a loaded machine could fail UNAVAILABLE before the request was ever sent.
    await new Promise<void>((resolve, reject) =>
      client.waitForReady(Date.now() + 10_000, (error) => (error ? reject(error) : resolve())),
    );
    return new Promise<ServiceError | null>((resolve) =>
      client.makeUnaryRequest(
        WalletServiceService.debit.path,
        (bytes: Buffer) => bytes,
        (bytes: Buffer) => bytes,
        body,
        new Metadata(),
        { deadline: Date.now() + 5_000 },
        (error) => {
          client.close();
          resolve(error);
        },
      ),
    );
  };
  return { server, debitAs, handled: () => handled, lastKey: () => lastKey };
}

test("an int64 beyond 2^53 - 1 is INVALID_ARGUMENT to an allowed caller, PERMISSION_DENIED to another, and never reaches the handler", async (t) => {
  const { server, debitAs, handled } = await countingWallet();
  try {
    const allowed = await debitAs("table", debitOfTooManyCents());
    t.like(allowed, { code: status.INVALID_ARGUMENT });
    t.regex(allowed!.details, /could not be decoded: .*MAX_SAFE_INTEGER/);
    t.like(await debitAs("gateway", debitOfTooManyCents()), { code: status.PERMISSION_DENIED });
    t.is(handled(), 0);
    // A request that decodes still reaches the handler.
    const fine = Buffer.from(DebitRequest.encode({ movement: undefined }).finish());
    t.is(await debitAs("table", fine), null);
    t.is(handled(), 1);
  } finally {
    await server.shutdown(0);
  }
});

// Read with U+FFFD in place of their last byte, two different keys were one: the second debit was
// answered as the first one's replay, though never made (a hunt, with Deposit).
test("a string that is not UTF-8 is INVALID_ARGUMENT, never read with U+FFFD in place of its bad bytes", async (t) => {
  const { server, debitAs, handled, lastKey } = await countingWallet();
  try {
    for (const byte of [0xff, 0xfe]) {
      const refused = await debitAs("table", debitWithKeyEndingIn(byte));
      t.like(refused, { code: status.INVALID_ARGUMENT });
      t.regex(refused!.details, /could not be decoded/);
    }
    t.is(handled(), 0);
    // U+FEFF and U+FFFD themselves are text, and pass.
    const key = "\ufeffkey-\ufffd";
    const text = Buffer.from(
      DebitRequest.encode(DebitRequest.fromPartial({ movement: { idempotencyKey: key } })).finish(),
    );
    t.is(await debitAs("table", text), null);
    t.is(handled(), 1);
    t.is(lastKey(), key);
  } finally {
    await server.shutdown(0);
  }
});
