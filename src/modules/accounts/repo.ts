// SQL for accounts.

import type { Account } from "../../db/schema";
import type { Sql } from "../../db/sql";
import { randomId } from "../../lib/ids";

const columns = `id, name, created_at AS "createdAt"`;

export class AccountsRepo {
  constructor(private readonly sql: Sql) {}

  findByName(name: string): Promise<Account | undefined> {
    return this.sql.get<Account>(`SELECT ${columns} FROM accounts WHERE name = $1`, [name]);
  }

  /** Returns the account with this name, creating it if it does not exist yet. */
  async ensure(name: string, now = Date.now()): Promise<Account> {
    await this.sql.run("INSERT INTO accounts (id, name, created_at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING", [
      `acc_${randomId(12)}`,
      name,
      now,
    ]);
    return (await this.findByName(name))!;
  }

  all(): Promise<Account[]> {
    return this.sql.all<Account>(`SELECT ${columns} FROM accounts ORDER BY created_at, id`);
  }
}
