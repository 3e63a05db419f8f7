// The EJS library's own fixtures, rendered through the real QuickJS sandbox child process:
// our EJS must produce exactly the expected HTML, byte for byte.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { TemplatingPool } from "../../src/render/templating";
import { sharedMissing, sharedPath, testIf } from "../helpers/shared";
import { testTemplatingPool } from "../helpers/templating";

// Real Chromium and sandboxes on a 2-core machine: a busy machine must slow tests, not fail them.
setDefaultTimeout(60_000);

// From shared/ beside the clone; without it every test here is skipped, saying why.
const DIR = sharedPath("fixtures/ejs");
const missing = sharedMissing("fixtures/ejs/manifest.json");
interface Fixture {
  name: string;
  template: string;
  expected: string;
  locals: Record<string, unknown>;
}
const manifest = (missing ? { fixtures: [] } : JSON.parse(readFileSync(join(DIR, "manifest.json"), "utf8"))) as { fixtures: Fixture[] };

let pool: TemplatingPool;
beforeAll(async () => {
  pool = testTemplatingPool({ outputMax: 20 * 1024 * 1024 });
  await pool.start();
}, 30_000);
afterAll(() => pool.stop(), 30_000);

describe("EJS fixtures through the sandbox", () => {
  testIf(missing)("the manifest lists fixtures", () => {
    expect(manifest.fixtures.length).toBeGreaterThanOrEqual(11);
  });

  test.each(manifest.fixtures.map((f) => [f.name, f] as const))("%s renders byte for byte", async (_name, f) => {
    const template = readFileSync(join(DIR, f.template), "utf8");
    const expected = readFileSync(join(DIR, f.expected));
    const out = await pool.render(template, JSON.stringify(f.locals));
    // Compare bytes, not just strings: a lost \r or a changed code unit must fail.
    expect(Buffer.from(out, "utf8").equals(expected)).toBe(true);
    expect(out).toBe(expected.toString("utf8"));
  });
});
