// SQL of `migrate-to`: reads a table a page at a time in primary-key order, and writes rows that are
// not there yet. The same text on SQLite (the source) and PostgreSQL (the target). Table and column
// names come only from COPIED_TABLES below, never from input.
import type { Sql } from "./sql";

export interface CopiedTable {
  name: string;
  /** The primary key: pages are read in its order, and an existing row is skipped on a resumed copy. */
  key: string;
  columns: string[];
  /** An INTEGER id that PostgreSQL numbers with a sequence: moved past the copied ids afterwards. */
  serial?: boolean;
  /**
   * Kept by triggers on a table copied before it (usage_daily, by the reports triggers): the copy of
   * those rows has already written some of these on the target, so the source's rows replace them.
   */
  derived?: boolean;
}

/** Every table that holds state, in foreign-key order; health_probe and job_leases are per run. */
export const COPIED_TABLES: CopiedTable[] = [
  { name: "accounts", key: "id", columns: ["id", "name", "created_at"] },
  {
    name: "access_keys",
    key: "id",
    columns: [
      "id",
      "account_id",
      "name",
      "secret_hash",
      "created_at",
      "last_used_at",
      "secret_check",
      "scopes",
      "expires_at",
      "max_reports_per_day",
      "previous_secret_hash",
      "previous_secret_check",
      "previous_valid_until",
      "rotated_at",
    ],
  },
  {
    name: "reports",
    key: "id",
    columns: [
      "id",
      "account_id",
      "engine",
      "status",
      "template",
      "data",
      "options",
      "attempts",
      "error_code",
      "error_message",
      "size_bytes",
      "page_count",
      "created_at",
      "started_at",
      "finished_at",
      "expires_at",
      "request_id",
      "not_before",
      "merge_parts",
      "lease_owner",
      "lease_expires_at",
      "template_id",
      "template_version",
      "key_id",
      "conformance",
      "progress_done",
      "progress_total",
    ],
  },
  {
    name: "templates",
    key: "id",
    columns: ["id", "account_id", "name", "engine", "latest_version", "created_at", "updated_at"],
  },
  {
    name: "template_versions",
    key: "id",
    columns: ["id", "template_id", "version", "html_template", "data_schema", "sample_data", "options", "warnings", "created_at"],
  },
  {
    name: "assets",
    key: "id",
    columns: ["id", "account_id", "name", "type", "size_bytes", "sha256", "created_at", "updated_at"],
  },
  { name: "report_webhooks", key: "report_id", columns: ["report_id", "url", "link_origin"] },
  {
    name: "webhook_secrets",
    key: "account_id",
    columns: ["account_id", "secret", "created_at", "previous_secret", "previous_expires_at"],
  },
  {
    name: "webhook_deliveries",
    key: "id",
    columns: ["id", "report_id", "event", "status", "attempts", "created_at", "next_attempt_at", "finished_at", "last_error", "claimed_by"],
  },
  {
    name: "webhook_attempts",
    key: "id",
    columns: ["id", "delivery_id", "started_at", "duration_ms", "response_status", "error"],
    serial: true,
  },
  {
    name: "idempotency_keys",
    key: "id",
    columns: ["id", "account_id", "key_hash", "fingerprint", "response", "created_at"],
    serial: true,
  },
  {
    name: "dashboard_sessions",
    key: "id_hash",
    columns: ["id_hash", "key_id", "account_id", "csrf_token", "created_at", "last_seen_at", "expires_at"],
  },
  { name: "key_daily_counts", key: "id", columns: ["id", "key_id", "day", "reports"] },
  {
    name: "audit_events",
    key: "id",
    columns: ["id", "account_id", "type", "actor", "actor_key_id", "client_address", "target", "detail", "created_at"],
  },
  {
    name: "signing_identities",
    key: "id",
    columns: [
      "id",
      "account_id",
      "name",
      "common_name",
      "subject",
      "issuer",
      "serial",
      "not_before",
      "not_after",
      "sha256_fingerprint",
      "chain",
      "sealed_key",
      "created_at",
    ],
  },
  {
    name: "usage_daily",
    key: "id",
    columns: ["id", "account_id", "key_id", "day", "submitted", "succeeded", "failed", "pages", "bytes", "render_ms"],
    derived: true,
  },
];

export type Row = Record<string, string | number | null>;

export class CopyRepo {
  constructor(private readonly sql: Sql) {}

  /** Up to `limit` rows after `after` (exclusive) in key order; the first page with after = null. */
  page(t: CopiedTable, after: string | number | null, limit: number): Promise<Row[]> {
    const cols = t.columns.join(", ");
    // Byte order on both engines (PostgreSQL would otherwise sort text by its locale), so that both
    // sides of the verification hash the same rows in the same order.
    const key = this.sql.dialect === "postgres" && !t.serial ? `${t.key} COLLATE "C"` : t.key;
    return after === null
      ? this.sql.all<Row>(`SELECT ${cols} FROM ${t.name} ORDER BY ${key} LIMIT $1`, [limit])
      : this.sql.all<Row>(`SELECT ${cols} FROM ${t.name} WHERE ${key} > $1 ORDER BY ${key} LIMIT $2`, [after, limit]);
  }

  /**
   * Inserts the rows that are not there yet (a resumed copy skips what the last run wrote), in one
   * transaction; a derived table's rows overwrite what is there.
   */
  async insertMissing(t: CopiedTable, rows: Row[]): Promise<number> {
    const cols = t.columns.join(", ");
    const params = t.columns.map((_, i) => `$${i + 1}`).join(", ");
    const onConflict = t.derived
      ? `ON CONFLICT (${t.key}) DO UPDATE SET ${t.columns.map((c) => `${c} = excluded.${c}`).join(", ")}`
      : "ON CONFLICT DO NOTHING";
    return this.sql.tx(async () => {
      let n = 0;
      for (const r of rows) {
        n += await this.sql.run(
          `INSERT INTO ${t.name} (${cols}) VALUES (${params}) ${onConflict}`,
          t.columns.map((c) => r[c]),
        );
      }
      return n;
    });
  }

  async count(t: CopiedTable): Promise<number> {
    return (await this.sql.get<{ n: number }>(`SELECT count(*) AS n FROM ${t.name}`))!.n;
  }

  /** PostgreSQL: moves a serial column's sequence past the largest copied id. */
  async bumpSequence(t: CopiedTable): Promise<void> {
    if (this.sql.dialect !== "postgres" || !t.serial) return;
    await this.sql.get(
      `SELECT setval(pg_get_serial_sequence('${t.name}', '${t.key}'), GREATEST((SELECT max(${t.key}) FROM ${t.name}), 1))`,
    );
  }
}
