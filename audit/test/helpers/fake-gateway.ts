// For the audit command's tests (here and in tools/test): reports of each status, and a fake gateway
// answering GET /api/admin/audit as told.
import { MovementKind } from "@pokerodds/common/generated/pokerodds/wallet/v1/wallet";
import { createServer, type IncomingMessage, type Server } from "node:http";
import { reconcile } from "../../src/reconcile.js";
import type { AuditReportBody } from "../../src/report.js";

export function report(kind: "clean" | "pending" | "mismatch"): AuditReportBody {
  const welcome = 100_000;
  const debit = kind === "clean" ? 0 : 2_500;
  return reconcile({
    wallet: {
      accounts: 1,
      entries: 2,
      refusedEntries: 0,
      totals: {
        balancesCents: welcome - debit,
        welcomeCreditsCents: welcome,
        depositsCents: 0,
        withdrawalsCents: 0,
        debitsCents: debit,
        creditsCents: 0,
      },
      reasonTotals: [
        { kind: MovementKind.MOVEMENT_KIND_WELCOME, reason: "welcome", count: 1, amountCents: welcome },
        ...(debit ? [{ kind: MovementKind.MOVEMENT_KIND_DEBIT, reason: "sit", count: 1, amountCents: debit }] : []),
      ],
      conserved: true,
      issues: [],
      issueCount: 0,
      clean: true,
    },
    table: {
      tables: [],
      openTransfers:
        kind === "pending"
          ? [
              {
                transferId: "t1",
                kind: 1,
                playerId: "alice",
                tableId: 2,
                amountCents: debit,
                createdAt: "2026-11-22T00:00:00Z",
              },
            ]
          : [],
      games: 0,
      conserved: true,
    },
  });
}

interface FakeGateway {
  url: string;
  port: number;
  requests: IncomingMessage[];
  close(): Promise<void>;
}

export async function fakeGateway(
  answer: (req: IncomingMessage) => { status: number; body: unknown } | Promise<{ status: number; body: unknown }>,
): Promise<FakeGateway> {
  const requests: IncomingMessage[] = [];
  const server: Server = createServer(async (req, res) => {
    requests.push(req);
    const { status, body } = await answer(req);
    res.writeHead(status, { "content-type": "application/json" });
    res.end(typeof body === "string" ? body : JSON.stringify(body));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
