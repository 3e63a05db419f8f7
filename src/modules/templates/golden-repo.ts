// SQL for golden samples: a template's named sample data sets and what comparing two of its versions
// found, the same text on SQLite and PostgreSQL. Both belong to a template of the account (the joins
// keep other accounts' rows out) and go with it (ON DELETE CASCADE).
import type { Sql } from "../../db/sql";

export interface Sample {
  name: string;
  /** The data as JSON text. */
  data: string;
  createdAt: number;
}

export interface ComparisonRow {
  id: string;
  templateId: string;
  version: number;
  base: number;
  status: "same" | "changed";
  /** The answer's JSON. */
  result: string;
  createdAt: number;
}

const owned = `EXISTS (SELECT 1 FROM templates t WHERE t.id = $1 AND t.account_id = $2)`;

export class GoldenRepo {
  constructor(private readonly sql: Sql) {}

  /** The template's samples by name; the caller has checked that the template is the account's. */
  samples(templateId: string): Promise<Sample[]> {
    return this.sql.all<Sample>(`SELECT name, data, created_at AS "createdAt" FROM template_samples WHERE template_id = $1 ORDER BY name`, [
      templateId,
    ]);
  }

  /**
   * Stores a sample under its name, replacing the data of one with that name. "full" when the template
   * has `max` samples and this is a new name; undefined when there is no such template of the account.
   * The count and the insert are one transaction, behind the template row's lock, so two concurrent
   * additions cannot both take the last place.
   */
  async putSample(
    templateId: string,
    accountId: string,
    s: Sample & { id: string },
    max: number,
  ): Promise<"created" | "replaced" | "full" | undefined> {
    return this.sql.tx(async () => {
      const locked = await this.sql.get<{ id: string }>(
        `UPDATE templates SET updated_at = updated_at WHERE id = $1 AND account_id = $2 RETURNING id`,
        [templateId, accountId],
      );
      if (!locked) return undefined;
      const replaced = await this.sql.run(`UPDATE template_samples SET data = $3 WHERE template_id = $1 AND name = $2`, [
        templateId,
        s.name,
        s.data,
      ]);
      if (replaced > 0) return "replaced";
      const n = await this.sql.get<{ n: number }>(`SELECT COUNT(*) AS n FROM template_samples WHERE template_id = $1`, [templateId]);
      if (Number(n?.n ?? 0) >= max) return "full";
      await this.sql.run(`INSERT INTO template_samples (id, template_id, name, data, created_at) VALUES ($1, $2, $3, $4, $5)`, [
        s.id,
        templateId,
        s.name,
        s.data,
        s.createdAt,
      ]);
      return "created";
    });
  }

  /** Deletes the account's template's sample; false when there was none. */
  async deleteSample(templateId: string, accountId: string, name: string): Promise<boolean> {
    return (
      (await this.sql.run(`DELETE FROM template_samples WHERE template_id = $1 AND name = $3 AND ${owned}`, [
        templateId,
        accountId,
        name,
      ])) > 0
    );
  }

  async saveComparison(c: ComparisonRow): Promise<void> {
    await this.sql.run(
      `INSERT INTO template_comparisons (id, template_id, version, base, status, result, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [c.id, c.templateId, c.version, c.base, c.status, c.result, c.createdAt],
    );
  }

  /** The newest comparison of the account's template's `version`, against any base. */
  latestComparison(templateId: string, accountId: string, version: number): Promise<ComparisonRow | undefined> {
    return this.sql.get<ComparisonRow>(
      `SELECT id, template_id AS "templateId", version, base, status, result, created_at AS "createdAt" FROM template_comparisons
       WHERE template_id = $1 AND version = $3 AND ${owned} ORDER BY created_at DESC, id DESC LIMIT 1`,
      [templateId, accountId, version],
    );
  }

  /** The answers of every comparison of the account's template (their picture links). */
  async comparisonResults(templateId: string, accountId: string): Promise<string[]> {
    const rows = await this.sql.all<{ result: string }>(`SELECT result FROM template_comparisons WHERE template_id = $1 AND ${owned}`, [
      templateId,
      accountId,
    ]);
    return rows.map((r) => r.result);
  }

  /** Whether a comparison of any of the account's templates still links the picture `sha256`. */
  async pictureInUse(accountId: string, sha256: string): Promise<boolean> {
    const row = await this.sql.get<{ one: number }>(
      `SELECT 1 AS one FROM template_comparisons c JOIN templates t ON t.id = c.template_id
       WHERE t.account_id = $1 AND c.result LIKE $2 LIMIT 1`,
      [accountId, `%/pictures/${sha256}.png%`],
    );
    return row !== undefined;
  }
}
