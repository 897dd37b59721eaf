// The audit report's schema is the money audit's own (@pokerodds/audit builds and reads the report).
import { reconcile } from "@pokerodds/audit/reconcile";
import { AuditReport } from "@pokerodds/audit/report";
import { AuditResponse as TableAuditResponse } from "@pokerodds/common/generated/pokerodds/table/v1/table";
import { AuditResponse as WalletAuditResponse } from "@pokerodds/common/generated/pokerodds/wallet/v1/wallet";

/** The report of a fresh installation, made by the audit itself (so the example cannot drift from it). */
const EXAMPLE_REPORT = reconcile({
  wallet: WalletAuditResponse.fromPartial({ clean: true, conserved: true }),
  table: TableAuditResponse.fromPartial({ conserved: true }),
  auditedAt: new Date("2026-11-23T12:00:00.000Z"),
});
import { apiPart } from "./operation.js";

export const adminApi = apiPart(
  "admin",
  { AuditReport },
  {
    getAudit: {
      method: "get",
      path: "/api/admin/audit",
      summary:
        "ADMIN only (403 otherwise): the money audit of wallet and tables, reconciled to the cent. 200 whatever " +
        "it finds (status clean, pending or mismatch); 503 when a service cannot be audited, 502 when its " +
        "answer is larger than the gateway accepts",
      ok: "AuditReport",
      errors: [403, 502, 503],
      example: { ok: EXAMPLE_REPORT },
    },
  },
);
