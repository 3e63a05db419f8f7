// What the client tests of both languages share: the reports they print and how a PDF is read back.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { packClient } from "../../scripts/pack-client";

export const repo = join(import.meta.dir, "..", "..");

/** An EJS report whose text the test reads back from the PDF. */
export const invoice = (n: number) => ({
  engine: "ejs" as const,
  html_template: "<h1>Invoice <%= number %></h1><p>Total: <%= total %> EUR</p>",
  data: { number: n, total: "1,200.00" },
});

/**
 * A report that stays unfinished for about `ms`: its template spins in the EJS sandbox (well under the
 * sandbox's 5 s CPU limit), so a wait must follow 202s, and a one-report queue stays full meanwhile.
 */
export const slowReport = (ms: number) => ({
  engine: "ejs" as const,
  html_template: `<% const end = Date.now() + ${ms}; while (Date.now() < end) {} %><p>slow</p>`,
  data: {},
});

/** A template that fails to render: its report ends `failed`, so waiting for it is 409 report_failed. */
export const brokenReport = { engine: "ejs" as const, html_template: "<%= notDefined.field %>", data: {} };

/** The text of a PDF, by poppler's pdftotext (not ours). */
export function pdfText(pdf: Uint8Array): string {
  const dir = mkdtempSync(join(tmpdir(), "reportgen-client-pdf-"));
  try {
    writeFileSync(join(dir, "r.pdf"), pdf);
    const p = Bun.spawnSync(["pdftotext", join(dir, "r.pdf"), "-"]);
    if (p.exitCode !== 0) throw new Error(`pdftotext: ${p.stderr}`);
    return p.stdout.toString();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The release's TypeScript client (scripts/pack-client.ts: compiled, then `npm pack`), unpacked where npm
 * would install it, dir/node_modules/@reportgen/client, so that `import … from "@reportgen/client"` in dir
 * runs what a user downloads. Answers the tarball's file list.
 */
export function installPackedClient(dir: string): string[] {
  const tgz = packClient(mkdtempSync(join(tmpdir(), "reportgen-client-pack-")));
  const target = join(dir, "node_modules", "@reportgen", "client");
  mkdirSync(target, { recursive: true });
  const untar = Bun.spawnSync(["tar", "xzf", tgz, "-C", target, "--strip-components=1"], { stderr: "pipe" });
  if (untar.exitCode !== 0) throw new Error(`unpacking ${tgz}: ${untar.stderr}`);
  const list = Bun.spawnSync(["tar", "tzf", tgz]).stdout.toString().trim().split("\n");
  rmSync(join(tgz, ".."), { recursive: true, force: true });
  return list;
}
