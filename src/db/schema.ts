// Drizzle table definitions; they mirror migrations/*.sql and migrations/postgres/*.sql (tests/unit/schema.test.ts
// and tests/unit/schema-postgres.test.ts keep the three in step). They type rows; queries are SQL (db/sql.ts).
// `migrate-to` copies every table and column declared here (db/copied-tables.ts), except the tables
// marked notCopied(), each with its reason.
import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { keptByTriggers, notCopied } from "./copied-tables";

export const accounts = sqliteTable("accounts", {
  id: text("id").primaryKey(),
  name: text("name").notNull().unique(),
  createdAt: integer("created_at").notNull(),
});

export const accessKeys = sqliteTable("access_keys", {
  id: text("id").primaryKey(),
  accountId: text("account_id")
    .notNull()
    .references(() => accounts.id, { onDelete: "cascade" }),
  name: text("name").notNull(),
  secretHash: text("secret_hash").notNull(),
  createdAt: integer("created_at").notNull(),
  lastUsedAt: integer("last_used_at"),
  /** base64url of the first bytes of HMAC-SHA256(auth pepper, secret); null for keys older than migration 0006 until first use. */
  secretCheck: text("secret_check"),
  /** Space-separated scopes (migration 0011; keys older than it hold every scope). */
  scopes: text("scopes").notNull().default("reports:write reports:read templates:write templates:read keys:manage"),
  expiresAt: integer("expires_at"),
  maxReportsPerDay: integer("max_reports_per_day"),
  /** The value before the last rotation, accepted until previousValidUntil (migration 0011). */
  previousSecretHash: text("previous_secret_hash"),
  previousSecretCheck: text("previous_secret_check"),
  previousValidUntil: integer("previous_valid_until"),
  rotatedAt: integer("rotated_at"),
});

/** Reports submitted per key per UTC day: the quota's counter (migration 0011). */
export const keyDailyCounts = sqliteTable("key_daily_counts", {
  /** `<key_id>/<day>` */
  id: text("id").primaryKey(),
  keyId: text("key_id").notNull(),
  day: integer("day").notNull(),
  reports: integer("reports").notNull(),
});

/** The audit trail (migration 0011). */
export const auditEvents = sqliteTable("audit_events", {
  id: text("id").primaryKey(),
  accountId: text("account_id").references(() => accounts.id, { onDelete: "cascade" }),
  type: text("type").notNull(),
  actor: text("actor").notNull(),
  actorKeyId: text("actor_key_id"),
  clientAddress: text("client_address"),
  target: text("target"),
  detail: text("detail"),
  createdAt: integer("created_at").notNull(),
});

/** Signing identities (migration 0014): the key only sealed, the chain as JSON of base64 DER. */
export const signingIdentities = sqliteTable("signing_identities", {
  id: text("id").primaryKey(),
  accountId: text("account_id")
    .notNull()
    .references(() => accounts.id, { onDelete: "cascade" }),
  name: text("name").notNull(),
  commonName: text("common_name").notNull(),
  subject: text("subject").notNull(),
  issuer: text("issuer").notNull(),
  serial: text("serial").notNull(),
  notBefore: integer("not_before").notNull(),
  notAfter: integer("not_after").notNull(),
  sha256Fingerprint: text("sha256_fingerprint").notNull(),
  chain: text("chain").notNull(),
  sealedKey: text("sealed_key").notNull(),
  createdAt: integer("created_at").notNull(),
});

/** Usage per UTC day, account and submitting key, kept by triggers on reports (migration 0012). */
export const usageDaily = keptByTriggers(
  sqliteTable("usage_daily", {
    /** `<day>/<account_id>/<key_id>` */
    id: text("id").primaryKey(),
    accountId: text("account_id")
      .notNull()
      .references(() => accounts.id, { onDelete: "cascade" }),
    /** "" for reports older than keys being recorded. */
    keyId: text("key_id").notNull(),
    /** Days since 1970-01-01 of the reports' created_at. */
    day: integer("day").notNull(),
    submitted: integer("submitted").notNull().default(0),
    succeeded: integer("succeeded").notNull().default(0),
    failed: integer("failed").notNull().default(0),
    pages: integer("pages").notNull().default(0),
    bytes: integer("bytes").notNull().default(0),
    renderMs: integer("render_ms").notNull().default(0),
  }),
  "the reports triggers count into it: the copy of reports counts only the reports that still exist, so the source's rows replace the target's",
);

export const reportStatuses = ["queued", "processing", "succeeded", "failed", "expired"] as const;
export type ReportStatus = (typeof reportStatuses)[number];
export const engines = ["ejs", "raw"] as const;
export type Engine = (typeof engines)[number];

export const reports = sqliteTable("reports", {
  id: text("id").primaryKey(),
  accountId: text("account_id")
    .notNull()
    .references(() => accounts.id, { onDelete: "cascade" }),
  engine: text("engine", { enum: engines }).notNull(),
  status: text("status", { enum: reportStatuses }).notNull(),
  template: text("template"),
  data: text("data"),
  options: text("options"),
  attempts: integer("attempts").notNull().default(0),
  errorCode: text("error_code"),
  errorMessage: text("error_message"),
  sizeBytes: integer("size_bytes"),
  pageCount: integer("page_count"),
  createdAt: integer("created_at").notNull(),
  startedAt: integer("started_at"),
  finishedAt: integer("finished_at"),
  expiresAt: integer("expires_at"),
  requestId: text("request_id"),
  notBefore: integer("not_before"),
  /** JSON array of the report ids a merged report joins (migration 0008); null otherwise. */
  mergeParts: text("merge_parts"),
  /** The process holding a processing report's lease, and when the lease runs out (migration 0009). */
  leaseOwner: text("lease_owner"),
  leaseExpiresAt: integer("lease_expires_at"),
  /** The stored template and version the report was made from (migration 0010); null for inline templates. */
  templateId: text("template_id"),
  templateVersion: integer("template_version"),
  /** The submitting access key (migration 0011); no foreign key, so a deleted key keeps its history. */
  keyId: text("key_id"),
  /** What the PDF conforms to, as JSON ({"pdfa": "3b"}; migration 0013); kept after the report finishes. */
  conformance: text("conformance"),
  /** A chunked report's chunks printed and chunks in all while it renders (migration 0014); null otherwise. */
  progressDone: integer("progress_done"),
  progressTotal: integer("progress_total"),
});

/** Jobs run by one holder at a time across instances (migration 0009). */
export const jobLeases = notCopied(
  sqliteTable("job_leases", {
    name: text("name").primaryKey(),
    holder: text("holder").notNull(),
    expiresAt: integer("expires_at").notNull(),
  }),
  "held by running processes only: the stopped source holds none that the cluster could honour",
);

/** Written by readiness checks to prove the database takes a write. */
export const healthProbe = notCopied(
  sqliteTable("health_probe", {
    name: text("name").primaryKey(),
    checkedAt: integer("checked_at").notNull(),
  }),
  "a readiness check's scratch row, rewritten by every check",
);

/** Dashboard sessions: see migrations/0003_dashboard_sessions.sql. */
export const dashboardSessions = sqliteTable("dashboard_sessions", {
  idHash: text("id_hash").primaryKey(),
  keyId: text("key_id")
    .notNull()
    .references(() => accessKeys.id, { onDelete: "cascade" }),
  accountId: text("account_id")
    .notNull()
    .references(() => accounts.id, { onDelete: "cascade" }),
  csrfToken: text("csrf_token").notNull(),
  createdAt: integer("created_at").notNull(),
  lastSeenAt: integer("last_seen_at").notNull(),
  expiresAt: integer("expires_at").notNull(),
});

export type Account = typeof accounts.$inferSelect;
export type AccessKey = typeof accessKeys.$inferSelect;
export type Report = typeof reports.$inferSelect;

// Webhooks and idempotency keys (migration 0004).
export const webhookSecrets = sqliteTable("webhook_secrets", {
  accountId: text("account_id")
    .primaryKey()
    .references(() => accounts.id, { onDelete: "cascade" }),
  secret: text("secret").notNull(),
  createdAt: integer("created_at").notNull(),
  previousSecret: text("previous_secret"),
  previousExpiresAt: integer("previous_expires_at"),
});

export const reportWebhooks = sqliteTable("report_webhooks", {
  reportId: text("report_id")
    .primaryKey()
    .references(() => reports.id, { onDelete: "cascade" }),
  url: text("url").notNull(),
  linkOrigin: text("link_origin").notNull(),
});

export const webhookEvents = ["report.succeeded", "report.failed"] as const;
export type WebhookEvent = (typeof webhookEvents)[number];
export const deliveryStatuses = ["pending", "delivered", "failed"] as const;
export type DeliveryStatus = (typeof deliveryStatuses)[number];

export const webhookDeliveries = sqliteTable("webhook_deliveries", {
  id: text("id").primaryKey(),
  reportId: text("report_id")
    .notNull()
    .references(() => reports.id, { onDelete: "cascade" }),
  event: text("event", { enum: webhookEvents }).notNull(),
  status: text("status", { enum: deliveryStatuses }).notNull(),
  attempts: integer("attempts").notNull().default(0),
  createdAt: integer("created_at").notNull(),
  nextAttemptAt: integer("next_attempt_at"),
  finishedAt: integer("finished_at"),
  lastError: text("last_error"),
  /** The process attempting a pending delivery now (migration 0008). */
  claimedBy: text("claimed_by"),
});

export const webhookAttempts = sqliteTable("webhook_attempts", {
  id: integer("id").primaryKey(),
  deliveryId: text("delivery_id")
    .notNull()
    .references(() => webhookDeliveries.id, { onDelete: "cascade" }),
  startedAt: integer("started_at").notNull(),
  durationMs: integer("duration_ms").notNull(),
  responseStatus: integer("response_status"),
  error: text("error"),
});

export const idempotencyKeys = sqliteTable("idempotency_keys", {
  id: integer("id").primaryKey(),
  accountId: text("account_id")
    .notNull()
    .references(() => accounts.id, { onDelete: "cascade" }),
  keyHash: text("key_hash").notNull(),
  fingerprint: text("fingerprint").notNull(),
  response: text("response").notNull(),
  createdAt: integer("created_at").notNull(),
});

export type DashboardSession = typeof dashboardSessions.$inferSelect;

// Stored templates and their immutable versions (migration 0010).
export const templates = sqliteTable("templates", {
  id: text("id").primaryKey(),
  accountId: text("account_id")
    .notNull()
    .references(() => accounts.id, { onDelete: "cascade" }),
  name: text("name").notNull(),
  engine: text("engine", { enum: engines }).notNull(),
  latestVersion: integer("latest_version").notNull(),
  createdAt: integer("created_at").notNull(),
  updatedAt: integer("updated_at").notNull(),
});

/** (template_id, version) is unique through the index template_versions_number. */
export const templateVersions = sqliteTable("template_versions", {
  id: text("id").primaryKey(),
  templateId: text("template_id")
    .notNull()
    .references(() => templates.id, { onDelete: "cascade" }),
  version: integer("version").notNull(),
  htmlTemplate: text("html_template").notNull(),
  dataSchema: text("data_schema"),
  sampleData: text("sample_data"),
  options: text("options"),
  warnings: text("warnings").notNull(),
  createdAt: integer("created_at").notNull(),
});

// The asset library (migration 0014). The media types the magic bytes can show.
export const assetTypes = [
  "image/png",
  "image/jpeg",
  "image/webp",
  "image/svg+xml",
  "font/woff2",
  "font/woff",
  "font/ttf",
  "font/otf",
  "text/css",
] as const;
export type AssetType = (typeof assetTypes)[number];

/** (account_id, name) is unique through the index assets_account_name. */
export const assets = sqliteTable("assets", {
  id: text("id").primaryKey(),
  accountId: text("account_id")
    .notNull()
    .references(() => accounts.id, { onDelete: "cascade" }),
  name: text("name").notNull(),
  type: text("type", { enum: assetTypes }).notNull(),
  sizeBytes: integer("size_bytes").notNull(),
  sha256: text("sha256").notNull(),
  createdAt: integer("created_at").notNull(),
  updatedAt: integer("updated_at").notNull(),
});
export type Asset = typeof assets.$inferSelect;

// Schedules (migration 0019): a stored template rendered on a cron schedule, and each tick that ran.
export const catchUpModes = ["none", "last"] as const;
export type CatchUp = (typeof catchUpModes)[number];
export const scheduleRunStatuses = ["running", "submitted", "failed"] as const;
export type ScheduleRunStatus = (typeof scheduleRunStatuses)[number];

export const schedules = sqliteTable("schedules", {
  id: text("id").primaryKey(),
  accountId: text("account_id")
    .notNull()
    .references(() => accounts.id, { onDelete: "cascade" }),
  name: text("name").notNull(),
  cron: text("cron").notNull(),
  timezone: text("timezone").notNull(),
  templateId: text("template_id").notNull(),
  templateVersion: integer("template_version"),
  /** JSON text. */
  data: text("data"),
  dataUrl: text("data_url"),
  /** JSON text. */
  options: text("options"),
  /** JSON text: options.deliver of each report it makes. */
  deliver: text("deliver"),
  webhookUrl: text("webhook_url"),
  catchUp: text("catch_up", { enum: catchUpModes }).notNull(),
  paused: integer("paused").notNull().default(0),
  nextRunAt: integer("next_run_at"),
  createdBy: text("created_by"),
  createdAt: integer("created_at").notNull(),
  updatedAt: integer("updated_at").notNull(),
});

/** (schedule_id, scheduled_for) is unique through the index schedule_runs_tick: the claim of a tick. */
export const scheduleRuns = sqliteTable("schedule_runs", {
  id: text("id").primaryKey(),
  scheduleId: text("schedule_id")
    .notNull()
    .references(() => schedules.id, { onDelete: "cascade" }),
  accountId: text("account_id")
    .notNull()
    .references(() => accounts.id, { onDelete: "cascade" }),
  scheduledFor: integer("scheduled_for").notNull(),
  status: text("status", { enum: scheduleRunStatuses }).notNull(),
  reportId: text("report_id"),
  error: text("error"),
  caughtUp: integer("caught_up").notNull().default(0),
  webhookStatus: text("webhook_status", { enum: ["pending", "delivered", "failed"] }),
  webhookAttempts: integer("webhook_attempts").notNull().default(0),
  webhookNextAt: integer("webhook_next_at"),
  createdAt: integer("created_at").notNull(),
  finishedAt: integer("finished_at"),
});
