// Drizzle table definitions; they mirror migrations/*.sql (tests/unit/schema.test.ts keeps them in step).
import { sqliteTable, text, integer } from "drizzle-orm/sqlite-core";

export const accounts = sqliteTable("accounts", {
  id: text("id").primaryKey(),
  name: text("name").notNull().unique(),
  createdAt: integer("created_at").notNull(),
});

export const accessKeys = sqliteTable("access_keys", {
  id: text("id").primaryKey(),
  accountId: text("account_id").notNull().references(() => accounts.id, { onDelete: "cascade" }),
  name: text("name").notNull(),
  secretHash: text("secret_hash").notNull(),
  createdAt: integer("created_at").notNull(),
  lastUsedAt: integer("last_used_at"),
});

export const reportStatuses = ["queued", "processing", "succeeded", "failed", "expired"] as const;
export type ReportStatus = (typeof reportStatuses)[number];
export const engines = ["ejs", "raw"] as const;
export type Engine = (typeof engines)[number];

export const reports = sqliteTable("reports", {
  id: text("id").primaryKey(),
  accountId: text("account_id").notNull().references(() => accounts.id, { onDelete: "cascade" }),
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
});

export type Account = typeof accounts.$inferSelect;
export type AccessKey = typeof accessKeys.$inferSelect;
export type Report = typeof reports.$inferSelect;
