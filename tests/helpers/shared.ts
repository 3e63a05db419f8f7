// The shared/ folder beside this repository's clone (the clone's parent directory's shared/, "../shared"
// from the repository's root): reference data the tests read but the repository does not hold (the public
// templates and EJS fixtures, the e-invoice examples, schemas, corpus and validator). Only that place is
// looked at, never a fixed folder of some machine: a clone without it skips what needs it, saying why.

import { test } from "bun:test";
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";

/** ../shared from the repository's root. */
export const SHARED_DIR = resolve(import.meta.dir, "../../..", "shared");

/** The shared/ folder's einvoice/ artefacts (a path that may not exist: see sharedMissing). */
export const EINVOICE_ARTEFACTS = join(SHARED_DIR, "einvoice");

/** The path of `rel` under shared/. */
export const sharedPath = (rel: string) => join(SHARED_DIR, rel);

/** Why `rel` under shared/ cannot be read here, or undefined when it is there. */
export function sharedMissing(rel: string): string | undefined {
  const path = sharedPath(rel);
  return existsSync(path) ? undefined : `${path} is absent (shared/ beside this clone holds it; the repository does not)`;
}

const warned = new Set<string>();
type TestBody = Parameters<typeof test>[1];

/**
 * test(), or test.skip() when `missing` says why it cannot run here: the reason is in the skipped test's
 * name and printed once, so a skip is never silent.
 */
export function testIf(missing: string | undefined) {
  return (name: string, fn: TestBody, timeout?: number) => {
    if (!missing) return test(name, fn, timeout);
    if (!warned.has(missing)) console.warn(`skipping tests: ${missing}`);
    warned.add(missing);
    return test.skip(`${name} (skipped: ${missing})`, fn);
  };
}
