// SQL for stored templates and their immutable versions, the same text on SQLite and PostgreSQL.

import { newestFirst } from "../../db/newest-first";
import type { Engine } from "../../db/schema";
import type { Sql } from "../../db/sql";
import type { Cursor } from "../../lib/cursor";
import type { TemplateOptions, TemplateSummary, TemplateVersion, Warning } from "./model";

/** A version as it is inserted: JSON fields already serialised by the caller (null when absent). */
export interface NewVersion {
  id: string;
  htmlTemplate: string;
  dataSchema: string | null;
  sampleData: string | null;
  options: string | null;
  warnings: string;
  createdAt: number;
}

export interface NewTemplate {
  id: string;
  accountId: string;
  name: string;
  engine: Engine;
  createdAt: number;
  requireApproval?: boolean;
}

const summary = `id, account_id AS "accountId", name, engine, latest_version AS "latestVersion", created_at AS "createdAt",
  updated_at AS "updatedAt", require_approval AS "requireApproval", approved_version AS "approvedVersion"`;

/** require_approval is 0/1 on both backends (the same SQL text). */
const toSummary = (r: Omit<TemplateSummary, "requireApproval"> & { requireApproval: number }): TemplateSummary => ({
  ...r,
  requireApproval: r.requireApproval === 1,
});

const versionCols = `template_id AS "templateId", version, html_template AS "htmlTemplate", data_schema AS "dataSchema",
  sample_data AS "sampleData", options, warnings, created_at AS "createdAt"`;

/** A version as it is read: as inserted, under its template's id and number. */
type VersionRow = Omit<NewVersion, "id"> & { templateId: string; version: number };

const parse = (s: string | null): unknown => (s === null ? null : JSON.parse(s));

function toVersion(r: VersionRow): TemplateVersion {
  return {
    templateId: r.templateId,
    version: r.version,
    htmlTemplate: r.htmlTemplate,
    dataSchema: parse(r.dataSchema),
    sampleData: parse(r.sampleData),
    options: parse(r.options) as TemplateOptions | null,
    warnings: JSON.parse(r.warnings) as Warning[],
    createdAt: r.createdAt,
  };
}

export class TemplatesRepo {
  constructor(private readonly sql: Sql) {}

  /** Runs fn in one transaction (joining the open one, if any): a template change and its audit event. */
  transaction<T>(fn: () => Promise<T>): Promise<T> {
    return this.sql.tx(fn);
  }

  /** Inserts a template with its version 1, in one transaction. */
  async create(t: NewTemplate, v: NewVersion): Promise<TemplateSummary> {
    return this.sql.tx(async () => {
      // With approval required, version 1 is the approved one: there is nothing to compare it to.
      const approved = t.requireApproval ? 1 : null;
      await this.sql.run(
        `INSERT INTO templates (id, account_id, name, engine, latest_version, created_at, updated_at, require_approval, approved_version)
         VALUES ($1, $2, $3, $4, 1, $5, $5, $6, $7)`,
        [t.id, t.accountId, t.name, t.engine, t.createdAt, t.requireApproval ? 1 : 0, approved],
      );
      await this.insertVersion(t.id, 1, v);
      return { ...t, latestVersion: 1, updatedAt: t.createdAt, requireApproval: approved !== null, approvedVersion: approved };
    });
  }

  /**
   * Appends the next version of the account's template; undefined when there is no such template. The
   * UPDATE takes the template's row lock (PostgreSQL) or the write lock (SQLite) first, so concurrent
   * additions get consecutive numbers and never the same one.
   */
  async addVersion(templateId: string, accountId: string, v: NewVersion): Promise<number | undefined> {
    return this.sql.tx(async () => {
      const row = await this.sql.get<{ n: number }>(
        `UPDATE templates SET latest_version = latest_version + 1, updated_at = $3 WHERE id = $1 AND account_id = $2
         RETURNING latest_version AS n`,
        [templateId, accountId, v.createdAt],
      );
      if (!row) return undefined;
      await this.insertVersion(templateId, row.n, v);
      return row.n;
    });
  }

  private async insertVersion(templateId: string, n: number, v: NewVersion): Promise<void> {
    await this.sql.run(
      `INSERT INTO template_versions (id, template_id, version, html_template, data_schema, sample_data, options, warnings, created_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
      [v.id, templateId, n, v.htmlTemplate, v.dataSchema, v.sampleData, v.options, v.warnings, v.createdAt],
    );
  }

  async get(id: string, accountId: string): Promise<TemplateSummary | undefined> {
    const r = await this.sql.get<Parameters<typeof toSummary>[0]>(`SELECT ${summary} FROM templates WHERE id = $1 AND account_id = $2`, [
      id,
      accountId,
    ]);
    return r && toSummary(r);
  }

  /** The account's templates, newest first, after the given position (the last item of the previous page). */
  async list(q: { accountId: string; limit: number; after?: Cursor }): Promise<TemplateSummary[]> {
    return (await newestFirst<Parameters<typeof toSummary>[0]>(this.sql, `SELECT ${summary} FROM templates`, q)).map(toSummary);
  }

  /**
   * Turns approval on or off. Turned on, the default version stays what it was (the latest, unless an
   * approved one is already recorded); false when there is no such template.
   */
  async setRequireApproval(id: string, accountId: string, on: boolean, at: number): Promise<boolean> {
    return (
      (await this.sql.run(
        `UPDATE templates SET require_approval = $3, updated_at = $4,
           approved_version = CASE WHEN $3 = 1 THEN COALESCE(approved_version, latest_version) ELSE approved_version END
         WHERE id = $1 AND account_id = $2`,
        [id, accountId, on ? 1 : 0, at],
      )) > 0
    );
  }

  /** Records `version` as the approved one (the default while approval is required); false when there is no such template. */
  async approve(id: string, accountId: string, version: number, at: number): Promise<boolean> {
    return (
      (await this.sql.run(`UPDATE templates SET approved_version = $3, updated_at = $4 WHERE id = $1 AND account_id = $2`, [
        id,
        accountId,
        version,
        at,
      ])) > 0
    );
  }

  /** One version of the account's template (the join keeps other accounts' versions out). */
  async version(templateId: string, accountId: string, n: number): Promise<TemplateVersion | undefined> {
    const r = await this.sql.get<VersionRow>(
      `SELECT ${versionCols} FROM template_versions v WHERE template_id = $1 AND version = $3
       AND EXISTS (SELECT 1 FROM templates t WHERE t.id = v.template_id AND t.account_id = $2)`,
      [templateId, accountId, n],
    );
    return r && toVersion(r);
  }

  /** The version numbers of a template with their dates, newest first. */
  versions(templateId: string): Promise<{ version: number; createdAt: number }[]> {
    return this.sql.all(`SELECT version, created_at AS "createdAt" FROM template_versions WHERE template_id = $1 ORDER BY version DESC`, [
      templateId,
    ]);
  }

  /** Deletes the account's template and its versions; false when there was none. */
  async delete(id: string, accountId: string): Promise<boolean> {
    return (await this.sql.run("DELETE FROM templates WHERE id = $1 AND account_id = $2", [id, accountId])) > 0;
  }
}
