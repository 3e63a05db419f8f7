// Every package the code imports is declared in package.json: one that is only there as another
// package's dependency (or peer) can vanish or change version with an update of that package. And
// imports between the tree's parts go one way: src/ imports neither tests/ nor scripts/; tests/ imports
// src/ and the scripts it tests, but no helper of scripts/lib/; scripts/ imports src/ and, of tests/, only
// tests/support/: what the benches and the tests both use (the throwaway PostgreSQL and S3 servers,
// openssl, a PNG maker) lives there, on the tests' side. Inside src/, the frame imports no feature: db/, http/ and access/ import
// nothing from modules/ (a feature reaches them through app/, the one place that knows every feature,
// which passes what they need in as values).
import { expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { builtinModules } from "node:module";
import { dirname, join, relative, resolve } from "node:path";

const root = join(import.meta.dir, "../..");
const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as Record<string, Record<string, string> | undefined>;
const declared = new Set([...Object.keys(pkg.dependencies ?? {}), ...Object.keys(pkg.devDependencies ?? {})]);

function* sources(dir: string): Generator<string> {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, e.name);
    if (e.isDirectory()) yield* sources(path);
    else if (/\.(ts|js)$/.test(e.name) && !e.name.endsWith(".bundle.js")) yield path;
  }
}

/** The package a specifier names (a bare name, or a path through node_modules/), or undefined. */
function packageOf(spec: string): string | undefined {
  const inModules = /(?:^|\/)node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(spec);
  if (inModules) return inModules[1];
  if (spec.startsWith(".") || spec.startsWith("/") || spec.startsWith("node:") || spec.startsWith("bun:")) return undefined;
  const name = spec.startsWith("@") ? spec.split("/").slice(0, 2).join("/") : spec.split("/")[0]!;
  return builtinModules.includes(name) ? undefined : name;
}

/**
 * What a file imports: Bun's scan (static and dynamic imports, require), which drops type-only imports,
 * and those from the text: a package that provides only types must be declared too, or tsc fails.
 */
function specifiers(file: string): string[] {
  const text = readFileSync(file, "utf8").replace(/^#!.*/, "");
  const scanned = transpiler.scanImports(text).map((i) => i.path);
  const statements = [...text.matchAll(/^\s*(?:import|export)\s[^;"'`]*?\bfrom\s*["']([^"']+)["']/gm)].map((m) => m[1]!);
  return [...scanned, ...statements];
}
const transpiler = new Bun.Transpiler({ loader: "ts" });

test("every package imported by src/, scripts/ and tests/ is in package.json's dependencies or devDependencies", () => {
  const undeclared = new Set<string>();
  for (const dir of ["src", "scripts", "tests"]) {
    for (const file of sources(join(root, dir))) {
      for (const path of specifiers(file)) {
        const name = packageOf(path);
        if (name && !declared.has(name)) undeclared.add(`${name} (${file.slice(root.length + 1)})`);
      }
    }
  }
  expect([...undeclared]).toEqual([]);
});

test("src/ imports nothing from scripts/ or tests/, tests/ nothing from scripts/lib/, and scripts/ only tests/support/ of tests/", () => {
  const forbidden: Record<string, string[]> = { src: ["scripts/", "tests/"], tests: ["scripts/lib/"], scripts: ["tests/"] };
  const wrong: string[] = [];
  for (const [dir, others] of Object.entries(forbidden)) {
    for (const file of sources(join(root, dir))) {
      for (const path of specifiers(file)) {
        if (!path.startsWith(".")) continue;
        const to = relative(root, resolve(dirname(file), path));
        if (dir === "scripts" && to.startsWith("tests/support/")) continue;
        if (others.some((o) => to.startsWith(o))) wrong.push(`${relative(root, file)} imports ${path}`);
      }
    }
  }
  expect(wrong).toEqual([]);
});

test("tests/support/ imports nothing else of tests/: the benches may import it without the test helpers", () => {
  const wrong: string[] = [];
  for (const file of sources(join(root, "tests", "support"))) {
    for (const path of specifiers(file)) {
      const to = target(file, path);
      if (to?.startsWith("tests/") && !to.startsWith("tests/support/")) wrong.push(`${relative(root, file)} imports ${path}`);
    }
  }
  expect(wrong).toEqual([]);
});

/** Where a relative specifier of `file` points, as a path from the root (undefined: a package or builtin). */
const target = (file: string, spec: string) => (spec.startsWith(".") ? relative(root, resolve(dirname(file), spec)) : undefined);

test("src/db/, src/http/ and src/access/ import nothing from src/modules/ (type-only imports included)", () => {
  const wrong: string[] = [];
  for (const dir of ["src/db", "src/http", "src/access"]) {
    for (const file of sources(join(root, dir))) {
      for (const path of specifiers(file)) {
        if (target(file, path)?.startsWith("src/modules/")) wrong.push(`${relative(root, file)} imports ${path}`);
      }
    }
  }
  expect(wrong).toEqual([]);
});
