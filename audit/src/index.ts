// The money audit: both services' audits read as of one moment (collect), reconciled to the cent
// (reconcile, one function per named check in checks/), the report's schema (report), and the report
// as a person reads it (summary). The command `npm run audit` is cli.ts.
export { AUDIT_DEADLINE_MS, auditDeadlineMs, readAudit } from "./collect.js";
export { reconcile } from "./reconcile.js";
export * from "./report.js";
