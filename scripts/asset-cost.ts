#!/usr/bin/env bun
// What using the asset library costs a report: the bench invoice with a 50 KB PNG logo and one WOFF2
// font (the page's font, through @font-face) referred to as asset:logo.png and asset:brand.woff2, against
// the same invoice with both inlined by hand as data: URLs. Target (issue 34): the assets variant costs
// <= 1.10x the inlined one.
//
// Usage:  bun scripts/asset-cost.ts [--count N] [--rounds R]     (default 40 PDFs per side per round, 3 rounds)
//
// One App in this process (SQLite, a temp data dir, the real EJS sandboxes and Chromium, defaults
// otherwise), driven through its HTTP handler one report at a time (c = 1): POST generate-pdf-async,
// wait for success, read the PDF. The sides alternate in blocks of 10 reports, in rotating order. For
// each side: wall time per PDF (median of per-report times) and CPU per PDF of this process tree (this
// process with the service in it, its Chromium and sandboxes: /proc, user + system), which other load
// on the machine disturbs less than machine-wide CPU. Both PDFs are checked to embed the same font and image.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { bootstrap } from "../src/app/bootstrap";
import { loadConfig } from "../src/config/load";
import { createLogger } from "../src/lib/logger";
import { processTable, readStat, TICK_MS, treeOf } from "../src/lib/process-tree";
import { logoPng } from "../tests/support/png";
import { benchTemplates } from "./bench-templates";

const arg = (name: string, d: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : d;
};
const COUNT = arg("count", 40);
const ROUNDS = arg("rounds", 3);
const BLOCK = 10;

const LOGO = logoPng(50 * 1024);
const FONT = readFileSync(join(import.meta.dir, "../docs/examples/invoice-de/source-code-pro-500.woff2"));
const dataUrl = (type: string, b: Uint8Array) => `data:${type};base64,${Buffer.from(b).toString("base64")}`;

/** The bench's invoice (raw), its logo and font as given. */
function invoice(logo: string, font: string): string {
  const fixture = benchTemplates().find((t) => t.name === "invoice-raw")!.html_template;
  const withLogo = fixture.replace(/src="data:image\/svg\+xml;base64,[^"]*"/, `src="${logo}" style="width:300px;height:auto"`);
  if (withLogo === fixture) throw new Error("the bench invoice has no inline logo to replace");
  return withLogo.replace(
    "</head>",
    `<style>@font-face { font-family: Brand; src: url("${font}") format("woff2"); } body, td, th { font-family: Brand, sans-serif !important; }</style></head>`,
  );
}

const SIDES = {
  inlined: invoice(dataUrl("image/png", LOGO), dataUrl("font/woff2", FONT)),
  assets: invoice("asset:logo.png", "asset:brand.woff2"),
};
type Side = keyof typeof SIDES;

function treeCpuMs(): number {
  const table = processTable();
  return (
    treeOf(process.pid, table).reduce((sum, pid) => {
      const s = readStat(pid);
      return sum + (s ? s.cpu + s.childrenCpu : 0);
    }, 0) * TICK_MS
  );
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

async function main() {
  const dir = mkdtempSync(join(tmpdir(), "reportgen-asset-cost-"));
  const app = await bootstrap(
    { ...loadConfig({}, {}), dataDir: dir, host: "127.0.0.1", port: 0 },
    {
      logger: createLogger("error"),
      mode: { render: true, listen: false },
    },
  );
  await app.start();
  try {
    const key = (await app.services.keys.createForAccount("bench", "asset-cost")).value;
    const call = async (method: string, path: string, body?: unknown) =>
      app.http.handle(
        new Request(`http://localhost${path}`, {
          method,
          headers: { "x-api-key": key, ...(body ? { "content-type": "application/json" } : {}) },
          body: body ? JSON.stringify(body) : undefined,
        }),
      );
    for (const [name, bytes] of [
      ["logo.png", LOGO],
      ["brand.woff2", FONT],
    ] as const) {
      const r = await call("POST", "/api/v1/assets", { name, content_base64: Buffer.from(bytes).toString("base64") });
      if (r.status !== 201) throw new Error(`upload of ${name}: ${r.status} ${await r.text()}`);
    }
    const render = async (side: Side): Promise<Uint8Array> => {
      const r = (await (await call("POST", "/api/v1/generate-pdf-async", { engine: "raw", html_template: SIDES[side] })).json()) as {
        report_id: string;
      };
      const dl = await call("GET", `/api/v1/reports/${r.report_id}/download?wait=30`);
      const link = ((await dl.json()) as { data?: string }).data;
      if (!link) throw new Error(`report ${r.report_id} of side ${side} has no PDF`);
      return new Uint8Array(await (await app.http.handle(new Request(link))).arrayBuffer());
    };
    // Warm-up, and the check that both sides print the same thing.
    const sizes: Record<string, number> = {};
    for (const side of Object.keys(SIDES) as Side[]) {
      for (let i = 0; i < 5; i++) sizes[side] = (await render(side)).length;
    }
    console.error(`PDF bytes: inlined ${sizes.inlined}, assets ${sizes.assets} (the logo is ${LOGO.length} B, the font ${FONT.length} B)`);
    const ms: Record<Side, number[]> = { inlined: [], assets: [] };
    const cpu: Record<Side, number> = { inlined: 0, assets: 0 };
    const n: Record<Side, number> = { inlined: 0, assets: 0 };
    for (let round = 0; round < ROUNDS; round++) {
      for (let block = 0; block < COUNT / BLOCK; block++) {
        const order: Side[] = (round + block) % 2 ? ["assets", "inlined"] : ["inlined", "assets"];
        for (const side of order) {
          const c0 = treeCpuMs();
          for (let i = 0; i < BLOCK; i++) {
            const t0 = performance.now();
            await render(side);
            ms[side].push(performance.now() - t0);
          }
          cpu[side] += treeCpuMs() - c0;
          n[side] += BLOCK;
        }
      }
      console.error(`round ${round + 1}/${ROUNDS} done`);
    }
    const line = (side: Side) =>
      `${side.padEnd(8)} p50 ${median(ms[side]).toFixed(1)} ms   CPU/PDF ${(cpu[side] / n[side]).toFixed(1)} ms   (${n[side]} PDFs)`;
    console.log(line("inlined"));
    console.log(line("assets"));
    const wallRatio = median(ms.assets) / median(ms.inlined);
    const cpuRatio = cpu.assets / n.assets / (cpu.inlined / n.inlined);
    console.log(`ratio assets/inlined: wall p50 ${wallRatio.toFixed(3)}, CPU per PDF ${cpuRatio.toFixed(3)} (target <= 1.10)`);
    console.log(`cache: ${app.services.assetResolver.cache.size} entries`);
  } finally {
    await app.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
