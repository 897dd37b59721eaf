// GET /api/admin/audit (ADMIN): both services' audits, reconciled by the money audit (@pokerodds/audit).
// 200 with the report whatever it finds (its status says clean, pending or mismatch); 503 when a
// service cannot be audited.
import { readAudit, reconcile } from "@pokerodds/audit";
import type { RequestHandler } from "express";
import { callerFor } from "../auth/backend-identity.js";
import { identityOf } from "../auth/require-auth.js";
import { fromService } from "../http/grpc-errors.js";
import { forbidden } from "../http/http-error.js";
import { requestIdOf } from "../http/request-logging.js";
import type { TableApi, WalletApi } from "../services.js";

export function auditRoute(wallet: WalletApi, table: TableApi): RequestHandler {
  return async (req, res) => {
    const identity = identityOf(res);
    if (identity.role !== "ADMIN") throw forbidden("the audit is for an ADMIN");
    const requestId = requestIdOf(req);
    const caller = callerFor(identity);
    const input = await readAudit({
      wallet: (deadlineMs) => fromService("wallet", wallet.audit({}, { deadlineMs, requestId })),
      table: (deadlineMs) => fromService("table", table.audit({ caller }, { deadlineMs, requestId })),
    });
    res.json(reconcile(input));
  };
}
