// PostgreSQL's embedded migrations, in order, bundled as text like SQLite's (../index.ts). Its own
// numbering: version 1 here is the whole SQLite schema up to 0008. Append; never edit a released file.
import p0001 from "./0001_init.sql" with { type: "text" };
import p0002 from "./0002_templates.sql" with { type: "text" };
import p0003 from "./0003_access_control.sql" with { type: "text" };
import p0004 from "./0004_usage.sql" with { type: "text" };
import p0005 from "./0005_report_conformance.sql" with { type: "text" };
import p0006 from "./0006_assets.sql" with { type: "text" };
import p0007 from "./0007_report_progress.sql" with { type: "text" };
import p0008 from "./0008_commit_guard.sql" with { type: "text" };
import p0009 from "./0009_signing_identities.sql" with { type: "text" };
import p0010 from "./0010_key_changes.sql" with { type: "text" };
import p0011 from "./0011_finished_state.sql" with { type: "text" };
import type { Migration } from "../index";
import p0012 from "./0012_e_invoices_scope.sql" with { type: "text" };
import p0014 from "./0014_schedules.sql" with { type: "text" };

export const postgresMigrations: Migration[] = [
  { version: 1, name: "0001_init", sql: p0001 },
  { version: 2, name: "0002_templates", sql: p0002 },
  { version: 3, name: "0003_access_control", sql: p0003 },
  { version: 4, name: "0004_usage", sql: p0004 },
  { version: 5, name: "0005_report_conformance", sql: p0005 },
  { version: 6, name: "0006_assets", sql: p0006 },
  { version: 7, name: "0007_report_progress", sql: p0007 },
  { version: 8, name: "0008_commit_guard", sql: p0008 },
  { version: 9, name: "0009_signing_identities", sql: p0009 },
  { version: 10, name: "0010_key_changes", sql: p0010 },
  { version: 11, name: "0011_finished_state", sql: p0011 },
  { version: 12, name: "0012_e_invoices_scope", sql: p0012 },
  { version: 14, name: "0014_schedules", sql: p0014 },
];
