#!/usr/bin/env bun
// Makes a PDF of docs/examples/: runs the first tested example of a guide page that sets VAR (a report id)
// with bash against a fresh `reportgen serve` of this checkout, as a reader would, and saves the PDF the
// service made. Usage: bun scripts/example-pdf.ts [PAGE VAR OUT]; without arguments, the e-invoice:
// docs/e-invoices.md INVOICE_ID docs/examples/invoice-facturx.pdf. The statement of docs/long-documents.md:
// bun scripts/example-pdf.ts docs/long-documents.md STATEMENT_ID docs/examples/statement.pdf; the signed
// invoice: bun scripts/example-pdf.ts docs/signatures.md SIGNED_ID docs/examples/invoice-signed.pdf. The example runs in a
// scratch directory whose docs/ is this checkout's (as in tests/blackbox/guide-examples.test.ts), so it finds the files
// of docs/examples/ as a reader in the repository's root does, and what it writes stays out of the checkout.
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const root = join(import.meta.dir, "..");
const [page, variable, out] =
  process.argv.length > 2
    ? [process.argv[2]!, process.argv[3]!, process.argv[4]!]
    : ["docs/e-invoices.md", "INVOICE_ID", join(root, "docs/examples/invoice-facturx.pdf")];
if (!page || !variable || !out) throw new Error("usage: bun scripts/example-pdf.ts [PAGE VAR OUT]");
const main = join(root, "src/main.ts");
const dir = mkdtempSync(join(tmpdir(), "reportgen-example-"));
const cwd = mkdtempSync(join(tmpdir(), "reportgen-example-cwd-"));
symlinkSync(join(root, "docs"), join(cwd, "docs"));

const doc = await Bun.file(join(root, page)).text();
// The page's sh test blocks in order, up to the one that sets the report's id (earlier ones may upload
// what it uses, e.g. a signing identity).
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
  const run = Bun.spawnSync(["bash", "-c", `set -euo pipefail\n${block}\necho "$${variable}" >&2`], { env, cwd });
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
  rmSync(cwd, { recursive: true, force: true });
}
