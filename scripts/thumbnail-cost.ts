#!/usr/bin/env bun
// What a picture costs against the plain invoice (issue 44): the bench's invoice (invoice-ejs) printed as
// a PDF ("plain") and as a PNG of its page at 150 dpi ("png"), and the thumbnail of each kind of report
// made on its first request ("plain thumbnail", "png thumbnail"). Targets: a thumbnail <= 5 % of the
// plain invoice's CPU; the PNG's own ratio is the bench's (`bun scripts/bench.ts --templates
// invoice-ejs,invoice-png`), printed here too as a cross-check at c = 1. An image report's thumbnail is
// made at print time (dbba461), so "png" includes it (~3-4 ms: the rasteriser's thread runs in this
// process) and "png thumbnail" is only the request for the kept file; compare "png" with --root of a
// checkout before it for the thumbnail's own cost.
//
// Usage:  bun scripts/thumbnail-cost.ts [--count N] [--rounds R] [--root DIR]
//         (default 20 reports per side per round, 3 rounds; --root runs another checkout's service,
//         e.g. main's, for a before/after)
//
// One App in this process (SQLite, a temp data dir, the real EJS sandboxes and Chromium, defaults
// otherwise), driven through its HTTP handler one request at a time. Each block prints BLOCK reports of a
// kind, then asks for their thumbnails; the kinds alternate in rotating order. CPU is this process
// tree's (/proc, user + system: the service, its Chromium and sandboxes, and the tools it ran and
// reaped), which other load on the machine disturbs less than the machine's.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { treeCpuMs } from "../src/lib/process-tree";
import { benchTemplates } from "./bench-templates";

const arg = (name: string, d: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1]! : d;
};
const COUNT = Number(arg("count", "20"));
const ROUNDS = Number(arg("rounds", "3"));
const ROOT = resolve(arg("root", join(import.meta.dir, "..")));
const BLOCK = 10;

const KINDS = ["plain", "png"] as const;
type Kind = (typeof KINDS)[number];
type Side = Kind | `${Kind} thumbnail`;

async function main() {
  const { bootstrap } = (await import(join(ROOT, "src/app/bootstrap"))) as typeof import("../src/app/bootstrap");
  const { loadConfig } = (await import(join(ROOT, "src/config/load"))) as typeof import("../src/config/load");
  const { createLogger } = (await import(join(ROOT, "src/lib/logger"))) as typeof import("../src/lib/logger");
  const invoice = benchTemplates().find((t) => t.name === "invoice-ejs")!;
  const body = (kind: Kind) => ({
    engine: invoice.engine,
    html_template: invoice.html_template,
    data: invoice.data,
    ...(kind === "png" ? { options: { image: { format: "png" } } } : {}),
  });
  const dir = mkdtempSync(join(tmpdir(), "reportgen-thumbnail-cost-"));
  const app = await bootstrap(
    { ...loadConfig({}, {}), dataDir: dir, host: "127.0.0.1", port: 0 },
    { logger: createLogger("error"), mode: { render: true, listen: false } },
  );
  await app.start();
  try {
    const key = (await app.services.keys.createForAccount("bench", "thumbnail-cost")).value;
    const call = async (method: string, path: string, json?: unknown) =>
      app.http.handle(
        new Request(`http://localhost${path}`, {
          method,
          headers: { "x-api-key": key, ...(json ? { "content-type": "application/json" } : {}) },
          body: json ? JSON.stringify(json) : undefined,
        }),
      );
    /** Prints one report of `kind` and reads its file through the signed link; resolves with its id. */
    const print = async (kind: Kind): Promise<string> => {
      const r = (await (await call("POST", "/api/v1/generate-pdf-async", body(kind))).json()) as { report_id: string };
      const link = ((await (await call("GET", `/api/v1/reports/${r.report_id}/download?wait=30`)).json()) as { data?: string }).data;
      if (!link) throw new Error(`report ${r.report_id} (${kind}) has no file`);
      await (await app.http.handle(new Request(link))).arrayBuffer();
      return r.report_id;
    };
    const thumbnail = async (id: string): Promise<number> => {
      const r = await call("GET", `/api/v1/reports/${id}/thumbnail`);
      if (r.status !== 200) throw new Error(`thumbnail of ${id}: ${r.status} ${await r.text()}`);
      return (await r.arrayBuffer()).byteLength;
    };
    for (const kind of KINDS) for (let i = 0; i < 3; i++) await thumbnail(await print(kind));
    const cpu = new Map<Side, number>();
    const n = new Map<Side, number>();
    const bytes = new Map<Kind, number>();
    const add = (side: Side, ms: number, count: number) => {
      cpu.set(side, (cpu.get(side) ?? 0) + ms);
      n.set(side, (n.get(side) ?? 0) + count);
    };
    for (let round = 0; round < ROUNDS; round++) {
      for (let block = 0; block < COUNT / BLOCK; block++) {
        const order = (round + block) % 2 ? [...KINDS].reverse() : KINDS;
        for (const kind of order) {
          let c0 = treeCpuMs(process.pid);
          const ids: string[] = [];
          for (let i = 0; i < BLOCK; i++) ids.push(await print(kind));
          add(kind, treeCpuMs(process.pid) - c0, BLOCK);
          c0 = treeCpuMs(process.pid);
          for (const id of ids) bytes.set(kind, await thumbnail(id));
          add(`${kind} thumbnail`, treeCpuMs(process.pid) - c0, BLOCK);
        }
      }
      console.error(`round ${round + 1}/${ROUNDS} done`);
    }
    const per = (side: Side) => cpu.get(side)! / n.get(side)!;
    const plain = per("plain");
    console.log(`service: ${ROOT}`);
    for (const side of ["plain", "png", "plain thumbnail", "png thumbnail"] as const)
      console.log(
        `${side.padEnd(16)} CPU ${per(side).toFixed(1).padStart(6)} ms   ÷ plain ${(per(side) / plain).toFixed(3)}   (${n.get(side)})`,
      );
    console.log(`thumbnail bytes: plain ${bytes.get("plain")}, png ${bytes.get("png")}; targets: png <= 1.2, a thumbnail <= 0.05`);
  } finally {
    await app.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

await main();
