// Intl in a template defaults to the server's time zone and locale (TZ, LANG), as Bun's own Intl in the
// server does: the sandbox processes (src/render/templating.ts) get those variables and nothing else of
// the server's environment. Real sandbox processes, compared with a bun process given the same variables.
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import type { TemplatingPool } from "../../src/render/templating";
import { testTemplatingPool } from "../helpers/templating";

setDefaultTimeout(60_000);

const ENV = { TZ: "Asia/Tokyo", LANG: "de_DE.UTF-8" };
const saved = { TZ: process.env.TZ, LANG: process.env.LANG };
let pool: TemplatingPool;
beforeAll(async () => {
  Object.assign(process.env, ENV);
  pool = testTemplatingPool();
  await pool.start();
}, 30_000);
afterAll(async () => {
  await pool.stop();
  for (const [k, v] of Object.entries(saved)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
}, 30_000);

test("without locales or timeZone, a template formats as the server's Bun does with the same TZ and LANG", async () => {
  const exprs = [
    "new Intl.DateTimeFormat().resolvedOptions().timeZone",
    "new Intl.NumberFormat().resolvedOptions().locale",
    "new Date(Date.UTC(2026, 10, 26, 20, 0)).toLocaleString()",
    "(1234.5).toLocaleString()",
  ];
  const html = await pool.render(`<%- JSON.stringify([${exprs.join(",")}]) %>`, "{}");
  const bun = Bun.spawnSync([process.execPath, "-e", `console.log(JSON.stringify([${exprs.join(",")}]))`], {
    env: { PATH: process.env.PATH ?? "/usr/bin:/bin", ...ENV },
  });
  const want = JSON.parse(bun.stdout.toString()) as string[];
  expect(want[0]).toBe("Asia/Tokyo");
  expect(JSON.parse(html)).toEqual(want);
});
