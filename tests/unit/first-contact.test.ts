// The first statement a command or `serve` sends PostgreSQL has a deadline, and its failure reads as one
// StartupError naming the server without its password (db/open.ts): the driver alone may retry a
// connection for as long as a statement waits. A stand-in for the pool: only its get() matters here.
import { expect, test } from "bun:test";
import { firstContact } from "../../src/db/open";
import { StartupError } from "../../src/lib/errors";

const URL = "postgres://reportgen:s3cret@db.internal:5432/reportgen";
const sql = (get: () => Promise<unknown>) => ({ get }) as never;

test("an answer in time: nothing to say", async () => {
  await firstContact(
    sql(async () => ({ "?column?": 1 })),
    URL,
    50,
  );
});

test("no answer within the deadline: a StartupError that names the server and the bound, not the password", async () => {
  const t0 = performance.now();
  const e = await firstContact(
    sql(() => new Promise(() => {})),
    URL,
    50,
  ).catch((x: unknown) => x);
  expect(performance.now() - t0).toBeLessThan(1_000);
  expect(e).toBeInstanceOf(StartupError);
  expect((e as Error).message).toStartWith(
    "PostgreSQL at postgres://reportgen:***@db.internal:5432/reportgen did not answer within 0.05 s",
  );
  expect((e as Error).message).not.toContain("s3cret");
});

test("a refusal from the driver: a StartupError with its reason and what to check", async () => {
  const e = await firstContact(
    sql(() => Promise.reject(new Error('password authentication failed for user "reportgen"'))),
    URL,
    50,
  ).catch((x: unknown) => x);
  expect(e).toBeInstanceOf(StartupError);
  expect((e as Error).message).toBe(
    'PostgreSQL at postgres://reportgen:***@db.internal:5432/reportgen cannot be used: password authentication failed for user "reportgen": check --database-url (host, port, user, password, database) and that PostgreSQL runs there',
  );
});
