// The tables of reports that go somewhere by themselves: schedules and their runs, destinations and the
// queue of report deliveries. Part of the one schema declaration (index.ts joins it to the
// core tables, so the copy, the row types and the checks read it like the rest).
import { integer, sqliteTable, text } from "drizzle-orm/sqlite-core";
import { accounts, deliveryStatuses, reports } from "./core";

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

// Destinations and the queue of report deliveries (migration 0018).
export const destinationTypes = ["s3", "sftp", "email"] as const;
export type DestinationType = (typeof destinationTypes)[number];

export const destinations = sqliteTable("destinations", {
  id: text("id").primaryKey(),
  accountId: text("account_id")
    .notNull()
    .references(() => accounts.id, { onDelete: "cascade" }),
  name: text("name").notNull(),
  type: text("type", { enum: destinationTypes }).notNull(),
  /** JSON: the settings that may be shown (endpoint, bucket, host, host key, recipients...). */
  settings: text("settings").notNull(),
  /** The seal of its secrets (src/lib/seal.ts), bound to its id. */
  sealedSecrets: text("sealed_secrets").notNull(),
  createdAt: integer("created_at").notNull(),
  updatedAt: integer("updated_at").notNull(),
});

export const reportDeliveries = sqliteTable("report_deliveries", {
  id: text("id").primaryKey(),
  reportId: text("report_id")
    .notNull()
    .references(() => reports.id, { onDelete: "cascade" }),
  /** Its index in options.deliver. */
  position: integer("position").notNull(),
  destinationId: text("destination_id").notNull(),
  /** The object key or file name, fixed when the report is accepted: every attempt writes the same one. */
  target: text("target").notNull(),
  subject: text("subject"),
  body: text("body"),
  linkOrigin: text("link_origin").notNull(),
  status: text("status", { enum: deliveryStatuses }).notNull(),
  attempts: integer("attempts").notNull().default(0),
  createdAt: integer("created_at").notNull(),
  /** NULL while the report's PDF is not durable yet; then when the next attempt is due (or its claim ends). */
  nextAttemptAt: integer("next_attempt_at"),
  deliveredAt: integer("delivered_at"),
  lastError: text("last_error"),
  claimedBy: text("claimed_by"),
});
