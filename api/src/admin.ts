// The audit report's schema is the money audit's own (@pokerodds/audit builds and reads the report).
import { AuditReport } from "@pokerodds/audit/report";
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
        "it finds (status clean, pending or mismatch); 503 when a service cannot be audited",
      ok: "AuditReport",
      errors: [403, 503],
    },
  },
);
