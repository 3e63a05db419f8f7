// The EJS sandbox pool is elastic (src/render/templating.ts): one sandbox while idle, more while reports
// wait for one, and after a quiet period back to one fresh sandbox, so the memory a burst raised (QuickJS's
// WebAssembly memory never shrinks) goes back to idle. Real sandbox processes; their private memory (USS)
// from /proc (PSS would move with every other bun process on the machine sharing the executable's pages).
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { ChildRegistry } from "../../src/lib/child-registry";
import { commandLine, memoryOf, treeOf } from "../../src/lib/process-tree";
import type { TemplatingPool } from "../../src/render/templating";
import { testTemplatingPool } from "../helpers/templating";

setDefaultTimeout(60_000);

const registry = new ChildRegistry();
let pool: TemplatingPool;
beforeAll(async () => {
  pool = testTemplatingPool({ processes: 3, outputMax: 20 * 1024 * 1024, registry, idleTrimMs: 1_500 });
  await pool.start();
}, 30_000);
afterAll(() => pool.stop(), 30_000);

const uss = (pid: number) => memoryOf(pid)?.uss ?? 0;
const sandboxes = () => treeOf(process.pid).filter((pid) => commandLine(pid).includes("sandbox-child"));
const until = async (what: string, fn: () => boolean, ms = 20_000) => {
  const end = Date.now() + ms;
  while (!fn()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await Bun.sleep(50);
  }
};

test("one sandbox while idle; more while reports wait; back to one fresh, smaller sandbox after a quiet period", async () => {
  const first = sandboxes();
  expect(first).toHaveLength(1);
  const idle = uss(first[0]!);
  // A burst of templates that each build a large string and take a while: they wait for a sandbox.
  const template =
    "<% var rows = []; for (var i = 0; i < 200000; i++) rows.push('row ' + i + ' ' + n); %><%= rows.length %>:<%= rows.join('').length > 0 %>";
  let most = 0;
  const watch = setInterval(() => (most = Math.max(most, sandboxes().length)), 20);
  const out = await Promise.all(Array.from({ length: 12 }, (_, i) => pool.render(template, JSON.stringify({ n: i }))));
  clearInterval(watch);
  expect(out).toEqual(Array(12).fill("200000:true"));
  expect(most).toBeGreaterThanOrEqual(2);
  expect(most).toBeLessThanOrEqual(3 + 1); // --sandboxes, plus one being replaced
  const grown = sandboxes().reduce((a, pid) => a + uss(pid), 0);
  expect(grown).toBeGreaterThan(idle + 10 * 1024 * 1024);
  // Quiet: the extra sandboxes stop, and the one left is replaced by a fresh one.
  await until("one fresh sandbox", () => {
    const now = sandboxes();
    return now.length === 1 && !first.includes(now[0]!) && registry.stats().sandbox.recycles >= 1;
  });
  expect(uss(sandboxes()[0]!)).toBeLessThan(idle + 5 * 1024 * 1024);
  expect(registry.stats().sandbox).toMatchObject({ children: 1, restarts: 0 });
  // It still renders.
  expect(await pool.render("<%= 6 * 7 %>", "{}")).toBe("42");
});

test("a wait shorter than growAfterMs ends in the sandboxes there are: no new one starts", async () => {
  // growAfterMs: longer than twelve small renders take one after another, even on a loaded machine.
  const brief = testTemplatingPool({ processes: 3, growAfterMs: 3_000 });
  await brief.start();
  try {
    const before = sandboxes().length;
    let most = 0;
    const watch = setInterval(() => (most = Math.max(most, sandboxes().length)), 10);
    const out = await Promise.all(Array.from({ length: 12 }, (_, i) => brief.render("<%= n * 2 %>", JSON.stringify({ n: i }))));
    clearInterval(watch);
    expect(out).toEqual(Array.from({ length: 12 }, (_, i) => String(i * 2)));
    // The other pool of this file holds one sandbox; this one kept its first.
    expect(most).toBe(before);
  } finally {
    await brief.stop();
  }
});
