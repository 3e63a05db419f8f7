// `reportgen admin create-key` as a user runs it: every scope by default, --scopes narrows, expiry and
// quota flags, the audit trail's actor "cli", and a clear refusal of an unknown scope.
import { Database } from "bun:sqlite";
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ALL_SCOPES } from "../../src/app/modules";
import { runCli, sourceCommand } from "../helpers/process";

const dir = mkdtempSync(join(tmpdir(), "rg-admin-keys-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const db = () => new Database(join(dir, "reportgen.db"), { readonly: true });

test("create-key: every scope by default; --scopes, --expires-at and --max-reports-per-day; recorded with actor cli", () => {
  const full = runCli(sourceCommand, ["admin", "create-key", "--name", "full", "--data-dir", dir]);
  expect(full.code).toBe(0);
  const fullId = /^rg_([a-z2-9]{12})_/.exec(full.stdout.trim())![1]!;
  const narrow = runCli(sourceCommand, [
    "admin",
    "create-key",
    "--name",
    "narrow",
    "--scopes",
    "reports:read,reports:write",
    "--expires-at",
    "2099-01-01T00:00:00Z",
    "--max-reports-per-day",
    "3",
    "--data-dir",
    dir,
  ]);
  expect(narrow.code).toBe(0);
  expect(narrow.stderr).toContain("scopes: reports:write reports:read");
  const narrowId = /^rg_([a-z2-9]{12})_/.exec(narrow.stdout.trim())![1]!;
  const d = db();
  try {
    const row = (id: string) =>
      d.query("SELECT scopes, expires_at AS e, max_reports_per_day AS q FROM access_keys WHERE id = ?").get(id) as {
        scopes: string;
        e: number | null;
        q: number | null;
      };
    expect(row(fullId)).toEqual({ scopes: ALL_SCOPES.join(" "), e: null, q: null });
    expect(row(narrowId)).toEqual({ scopes: "reports:write reports:read", e: Date.parse("2099-01-01T00:00:00Z"), q: 3 });
    const events = d.query("SELECT type, actor, actor_key_id AS k, target FROM audit_events ORDER BY created_at, id").all();
    expect(events).toEqual([
      { type: "access_key.created", actor: "cli", k: null, target: fullId },
      { type: "access_key.created", actor: "cli", k: null, target: narrowId },
    ]);
  } finally {
    d.close();
  }
}, 60_000);

test("create-key with an unknown scope or an expiry in the past: exit 2 (bad input), a message naming what to fix, no key", () => {
  const bad = runCli(sourceCommand, ["admin", "create-key", "--name", "bad", "--scopes", "reports:reed", "--data-dir", dir]);
  expect(bad.code).toBe(2);
  expect(bad.stdout.trim()).toBe("");
  for (const s of ALL_SCOPES) expect(bad.stderr).toContain(s);
  const past = runCli(sourceCommand, ["admin", "create-key", "--name", "bad", "--expires-at", "2001-01-01T00:00:00Z", "--data-dir", dir]);
  expect(past.code).toBe(2);
  expect(past.stderr).toContain("expires_at");
  const d = db();
  try {
    expect((d.query("SELECT count(*) AS n FROM access_keys WHERE name = 'bad'").get() as { n: number }).n).toBe(0);
  } finally {
    d.close();
  }
}, 60_000);

test("list-keys shows each key's expiry and scopes", () => {
  const listed = runCli(sourceCommand, ["admin", "list-keys", "--data-dir", dir]);
  expect(listed.code).toBe(0);
  const header = listed.stdout.split("\n")[0]!;
  expect(header).toContain("EXPIRES");
  expect(header).toContain("SCOPES");
  const narrow = listed.stdout.split("\n").find((l) => l.includes("narrow"))!;
  expect(narrow).toContain("2099-01-01T00:00:00.000Z");
  expect(narrow).toEndWith("reports:write,reports:read");
}, 60_000);
