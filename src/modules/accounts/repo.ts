// SQL for accounts.
import { eq } from "drizzle-orm";
import type { Db } from "../../db/client";
import { type Account, accounts } from "../../db/schema";
import { randomId } from "../../lib/ids";

export class AccountsRepo {
  constructor(private readonly db: Db) {}

  findByName(name: string): Account | undefined {
    return this.db.select().from(accounts).where(eq(accounts.name, name)).get();
  }

  /** Returns the account with this name, creating it if it does not exist yet. */
  ensure(name: string, now = Date.now()): Account {
    this.db
      .insert(accounts)
      .values({ id: `acc_${randomId(12)}`, name, createdAt: now })
      .onConflictDoNothing()
      .run();
    return this.findByName(name)!;
  }

  all(): Account[] {
    return this.db.select().from(accounts).orderBy(accounts.createdAt).all();
  }
}
