#!/usr/bin/env bun
// Makes docs/examples/invoice-facturx.pdf: runs the first example of docs/e-invoices.md (the e-invoice
// printed from a template) with bash against a fresh `reportgen serve` of this checkout, as a reader would,
// and saves the PDF the service made. With --signed, docs/examples/invoice-signed.pdf from the examples of
// docs/signatures.md (an identity uploaded, then the e-invoice signed).
// Usage: bun scripts/example-invoice.ts [--signed] [OUT]
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const root = join(import.meta.dir, "..");
const signed = process.argv.includes("--signed");
const args = process.argv.slice(2).filter((a) => a !== "--signed");
const out = args[0] ?? join(root, signed ? "docs/examples/invoice-signed.pdf" : "docs/examples/invoice-facturx.pdf");
const main = join(root, "src/main.ts");
const dir = mkdtempSync(join(tmpdir(), "reportgen-example-"));

const page = signed ? "docs/signatures.md" : "docs/e-invoices.md";
const variable = signed ? "SIGNED_ID" : "INVOICE_ID";
const doc = await Bun.file(join(root, page)).text();
// The page's sh test blocks in order, up to the one that sets the report's id.
const blocks = [...doc.matchAll(/```sh test\n([\s\S]*?)```/g)].map((m) => m[1]!);
const last = blocks.findIndex((b) => b.includes(`${variable}=`));
if (last < 0) throw new Error(`${page}: no sh test block sets ${variable}`);
const block = blocks.slice(0, last + 1).join("\n");

const key = Bun.spawnSync([process.execPath, main, "admin", "create-key", "--name", "example", "--data-dir", dir]);
if (key.exitCode !== 0) throw new Error(`create-key failed: ${key.stderr}`);
const port = 20_000 + Math.floor(Math.random() * 20_000);
const base = `http://127.0.0.1:${port}`;
const server = Bun.spawn([process.execPath, main, "serve", "--data-dir", dir, "--host", "127.0.0.1", "--port", String(port)], {
  stdout: "ignore",
  stderr: "inherit",
});
try {
  for (let i = 0; ; i++) {
    if ((await fetch(`${base}/healthz`).catch(() => undefined))?.ok) break;
    if (i > 600) throw new Error("the server did not become healthy in 60 s");
    await Bun.sleep(100);
  }
  const env = { PATH: process.env.PATH ?? "", REPORTGEN_URL: base, KEY: key.stdout.toString().trim() };
  const run = Bun.spawnSync(["bash", "-c", `set -euo pipefail\n${block}\necho "$${variable}" >&2`], { env });
  if (run.exitCode !== 0) throw new Error(`the example failed: ${run.stderr}`);
  const id = run.stderr.toString().trim().split("\n").pop()!;
  const link = (await (await fetch(`${base}/api/v1/reports/${id}/download?wait=30`, { headers: { "x-api-key": env.KEY } })).json()) as {
    data: string;
  };
  const pdf = new Uint8Array(await (await fetch(link.data)).arrayBuffer());
  writeFileSync(out, pdf);
  console.log(`wrote ${out} (${pdf.length} bytes, report ${id})`);
} finally {
  server.kill();
  await server.exited;
  rmSync(dir, { recursive: true, force: true });
}
