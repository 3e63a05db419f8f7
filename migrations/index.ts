// The embedded list of migrations, in order. `bun build --compile` bundles each SQL file as text,
// so the executable needs no migrations folder at run time. Append new files here; never edit old ones.
import m0001 from "./0001_init.sql" with { type: "text" };
import m0002 from "./0002_reports_account_status.sql" with { type: "text" };
import m0003 from "./0003_dashboard_sessions.sql" with { type: "text" };
import m0004 from "./0004_webhooks_idempotency.sql" with { type: "text" };
import m0005 from "./0005_operations.sql" with { type: "text" };
import m0006 from "./0006_access_key_check.sql" with { type: "text" };
import m0007 from "./0007_reports_not_before.sql" with { type: "text" };
import m0008 from "./0008_report_merges.sql" with { type: "text" };
import m0009 from "./0009_queue_lease.sql" with { type: "text" };
import m0010 from "./0010_templates.sql" with { type: "text" };
import m0011 from "./0011_access_control.sql" with { type: "text" };
import m0012 from "./0012_usage.sql" with { type: "text" };
import m0013 from "./0013_report_conformance.sql" with { type: "text" };
import m0014 from "./0014_assets.sql" with { type: "text" };
import m0015 from "./0015_report_progress.sql" with { type: "text" };
import m0016 from "./0016_signing_identities.sql" with { type: "text" };
import m0017 from "./0017_e_invoices_scope.sql" with { type: "text" };
import m0019 from "./0019_schedules.sql" with { type: "text" };

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

export const migrations: Migration[] = [
  { version: 1, name: "0001_init", sql: m0001 },
  { version: 2, name: "0002_reports_account_status", sql: m0002 },
  { version: 3, name: "0003_dashboard_sessions", sql: m0003 },
  { version: 4, name: "0004_webhooks_idempotency", sql: m0004 },
  { version: 5, name: "0005_operations", sql: m0005 },
  { version: 6, name: "0006_access_key_check", sql: m0006 },
  { version: 7, name: "0007_reports_not_before", sql: m0007 },
  { version: 8, name: "0008_report_merges", sql: m0008 },
  { version: 9, name: "0009_queue_lease", sql: m0009 },
  { version: 10, name: "0010_templates", sql: m0010 },
  { version: 11, name: "0011_access_control", sql: m0011 },
  { version: 12, name: "0012_usage", sql: m0012 },
  { version: 13, name: "0013_report_conformance", sql: m0013 },
  { version: 14, name: "0014_assets", sql: m0014 },
  { version: 15, name: "0015_report_progress", sql: m0015 },
  { version: 16, name: "0016_signing_identities", sql: m0016 },
  { version: 17, name: "0017_e_invoices_scope", sql: m0017 },
  { version: 19, name: "0019_schedules", sql: m0019 },
];
