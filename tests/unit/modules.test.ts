// The module list (src/app/modules.ts): each feature declares itself in its descriptor, and the central
// tables are joined from the descriptors. A name two modules claim is refused, and the joined tables
// hold together: every scope a route needs is declared by a module, and every declared scope is needed.
import { expect, test } from "bun:test";
import { getTableName, is } from "drizzle-orm";
import { SQLiteTable } from "drizzle-orm/sqlite-core";
import { ScopeList } from "../../src/access/scopes";
import { ALL_SCOPES, FRAME_TABLES, MODULES, ROUTE_ACCESS, SCOPE_LIST } from "../../src/app/modules";
import { navOf } from "../../src/dashboard/routes";
import * as schema from "../../src/db/schema";
import { joinRules } from "../../src/http/route-access";

test("each module is listed once, under its folder's name", async () => {
  const names = MODULES.map((m) => m.name);
  expect(new Set(names).size).toBe(names.length);
  for (const name of names) {
    const folder = name === "dashboard" ? "src/dashboard" : `src/modules/${name}`;
    expect(await Bun.file(`${import.meta.dir}/../../${folder}/module.ts`).exists()).toBe(true);
  }
});

test("every scope a route needs is declared by a module, and every declared scope is needed by a route", () => {
  const needed = new Set(Object.values(ROUTE_ACCESS).filter((a) => a !== "public" && a !== "dashboard"));
  expect([...needed].filter((s) => !SCOPE_LIST.has(s))).toEqual([]);
  expect(ALL_SCOPES.filter((s) => !needed.has(s))).toEqual([]);
});

test("the scopes keep the order keys have always listed them in; a new module's scopes come after", () => {
  // A key's scopes are listed in this order (answers, audit details): the scopes of earlier releases stay
  // first and in place, and a module added to the end of the list adds its scopes at the end.
  const released: string[] = [
    "reports:write",
    "reports:read",
    "templates:write",
    "templates:read",
    "assets:write",
    "assets:read",
    "keys:manage",
    "signing:manage",
    "e_invoices:validate",
  ];
  expect(ALL_SCOPES.slice(0, released.length) as string[]).toEqual(released);
});

test("a route or a scope that two modules declare is refused", () => {
  expect(() => joinRules([{ "GET /x": "public" }, { "GET /x": "dashboard" }])).toThrow("GET /x");
  expect(() => ScopeList.join([{ "reports:read": "a" }, { "reports:read": "b" }])).toThrow("reports:read");
});

test("every table of db/schema.ts has one owner, a module's descriptor or the frame, and every owned table is declared there", () => {
  const declared = (Object.values(schema) as unknown[]).filter((v): v is SQLiteTable => is(v, SQLiteTable));
  const owners = [
    ...FRAME_TABLES.map((t) => [t, "frame"] as const),
    ...MODULES.flatMap((m) => (m.tables ?? []).map((t) => [t, m.name] as const)),
  ];
  const ownersOf = (t: SQLiteTable) => owners.filter(([o]) => o === t).map(([, name]) => name);
  expect(declared.length).toBeGreaterThan(15);
  expect(declared.map((t) => [getTableName(t), ownersOf(t).length]).filter(([, n]) => n !== 1)).toEqual([]);
  expect(owners.filter(([t]) => !declared.includes(t)).map(([t]) => getTableName(t))).toEqual([]);
});

test("the dashboard's navigation, joined from the modules' sections, keeps its order; a new module's page fits in", () => {
  const nav = navOf(MODULES.flatMap((m) => m.dashboard ?? [])).map((n) => `${n.label} ${n.href}`);
  // The sections of earlier releases stay in this order (a new module places its own among them).
  const released = [
    "Overview /dashboard",
    "Reports /dashboard/reports",
    "Templates /dashboard/templates",
    "Assets /dashboard/asset-library",
    "Playground /dashboard/playground",
    "Access Keys /dashboard/keys",
    "Signing /dashboard/signing",
    "Audit /dashboard/audit",
  ];
  expect(nav.filter((n) => released.includes(n))).toEqual(released);
  expect(nav[0]).toBe("Overview /dashboard");
  expect(new Set(nav).size).toBe(nav.length);
});
