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

export function adminRoutes(wallet: WalletApi, table: TableApi): Handlers<typeof adminApi> {
  return {
    getAudit: async (req, res) => {
      const identity = identityOf(res);
      if (identity.role !== "ADMIN") throw forbidden("the audit is for an ADMIN");
      const caller = callerFor(identity);
      const input = await readAudit({
        wallet: (deadlineMs) => fromService("wallet", wallet.audit({}, callOptions(req, deadlineMs))),
        table: (deadlineMs) => fromService("table", table.audit({ caller }, callOptions(req, deadlineMs))),
      });
      res.json(reconcile(input));
    },
  };
}
