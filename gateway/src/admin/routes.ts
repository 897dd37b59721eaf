// GET /api/admin/audit (ADMIN): both services' audits, reconciled by the money audit (@pokerodds/audit).
// 200 with the report whatever it finds (its status says clean, pending or mismatch); 503 when a
// service cannot be audited.
import { readAudit, reconcile } from "@pokerodds/audit";
import { callerFor, identityOf } from "../auth/caller.js";
import { callOptions, fromService } from "../http/backend-call.js";
import { forbidden } from "../http/errors.js";
import type { Handlers } from "../http/mount.js";
import type { TableApi, WalletApi } from "../services.js";
import type { adminApi } from "@pokerodds/api/admin";

export function adminRoutes(wallet: WalletApi, table: TableApi, auditDeadlineMs: number): Handlers<typeof adminApi> {
  return {
    getAudit: async (req, res) => {
      const identity = identityOf(res);
      if (identity.role !== "ADMIN") throw forbidden("the audit is for an ADMIN");
      const caller = callerFor(identity);
      // An ADMIN who stops waiting cancels the readings, and the services stop reading.
      const gone = new AbortController();
      res.once("close", () => gone.abort());
      const options = (deadlineMs: number) => ({ ...callOptions(req, deadlineMs), signal: gone.signal });
      const input = await readAudit(
        {
          wallet: (deadlineMs) => fromService("wallet", wallet.audit({}, options(deadlineMs))),
          table: (deadlineMs) => fromService("table", table.audit({ caller }, options(deadlineMs))),
        },
        { deadlineMs: auditDeadlineMs },
      );
      res.json(reconcile(input));
    },
  };
}
