// `reportgen render` as a real process: EJS and raw templates from files and from stdin, the PDF to a
// file or to stdout (read back with pdftotext/pdfinfo), each exit code with its message on stderr, and
// nothing left behind outside OUT (TMPDIR and HOME point at empty folders that must stay empty).
import { afterAll, expect, test } from "bun:test";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { findProcesses } from "../../src/lib/process-tree";
import { pdfInfo, pdfText } from "../helpers/app";
import { sourceCommand } from "../helpers/process";
import { sharedMissing, sharedPath, testIf } from "../helpers/shared";

const work = mkdtempSync(join(tmpdir(), "reportgen-render-test-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

// The public invoice fixture, from shared/ beside the clone (its test skips without it, saying why); the
// other tests only need some raw HTML file, which is written here.
const INVOICE_FIXTURE = "fixtures/templates/invoice.html";
const invoiceFixture = sharedPath(INVOICE_FIXTURE);
const page = join(work, "page.html");
writeFileSync(page, "<html><body><h1>A raw page</h1></body></html>");

writeFileSync(
  join(work, "invoice.ejs"),
  `<html><body><h1>Invoice <%= number %></h1><ul><% for (const it of items) { %><li><%= it.name %>: <%= it.price %> EUR</li><% } %></ul></body></html>`,
);
const data = {
  number: "A-17",
  items: [
    { name: "Widget", price: 3 },
    { name: "Gadget", price: 5 },
  ],
};
writeFileSync(join(work, "data.json"), JSON.stringify(data));

interface Run {
  code: number;
  stdout: Uint8Array;
  stderr: string;
  /** What the run left in its own TMPDIR and HOME (must be nothing). */
  leftovers: string[];
}

/** Runs `reportgen render ...` in an empty working folder with its own empty TMPDIR and HOME. */
async function render(args: string[], stdin?: string): Promise<Run> {
  const box = mkdtempSync(join(work, "run-"));
  const tmp = join(box, "tmp");
  const home = join(box, "home");
  const cwd = join(box, "cwd");
  for (const d of [tmp, home, cwd]) mkdirSync(d);
  const p = Bun.spawn([...sourceCommand, "render", ...args], {
    cwd,
    stdin: stdin === undefined ? "ignore" : new TextEncoder().encode(stdin),
    stdout: "pipe",
    stderr: "pipe",
    // Bun's transpiler cache (source runs only; the executable has none) would land in HOME.
    env: {
      ...process.env,
      TMPDIR: tmp,
      HOME: home,
      REPORTGEN_DATA_DIR: join(box, "data-not-used"),
      BUN_RUNTIME_TRANSPILER_CACHE_PATH: "0",
    },
  });
  const [stdout, stderr, code] = await Promise.all([new Response(p.stdout).bytes(), new Response(p.stderr).text(), p.exited]);
  const leftovers = [
    ...readdirSync(tmp).map((n) => `TMPDIR/${n}`),
    ...readdirSync(home).map((n) => `HOME/${n}`),
    ...readdirSync(cwd).map((n) => `cwd/${n}`),
  ];
  if (readdirSync(box).includes("data-not-used")) leftovers.push("the data dir");
  rmSync(box, { recursive: true, force: true });
  return { code, stdout, stderr, leftovers };
}

test("EJS from files to -o FILE: the data's values are in the PDF, nothing else is written", async () => {
  const out = join(work, "ejs.pdf");
  const r = await render([join(work, "invoice.ejs"), "--data", join(work, "data.json"), "-o", out]);
  expect(r.stderr).toBe("");
  expect(r.code).toBe(0);
  const text = await pdfText(readFileSync(out));
  expect(text).toContain("Invoice A-17");
  expect(text).toContain("Widget: 3 EUR");
  expect(text).toContain("Gadget: 5 EUR");
  expect(r.leftovers).toEqual([]);
});

testIf(sharedMissing(INVOICE_FIXTURE))(
  "raw HTML (the engine from .html) to stdout: the invoice fixture prints as one A4 page",
  async () => {
    const r = await render([invoiceFixture, "-o", "-"]);
    expect(r.code).toBe(0);
    expect(new TextDecoder().decode(r.stdout.slice(0, 5))).toBe("%PDF-");
    const info = await pdfInfo(r.stdout);
    expect(info.Pages).toBe("1");
    expect(info["Page size"]).toContain("595.92 x 842.88"); // A4, the service's default
    expect(info.Creator).toMatch(/^reportgen /);
    expect(await pdfText(r.stdout)).toContain("Invoice #: 123");
    expect(r.leftovers).toEqual([]);
  },
);

test("data from stdin (--data -), and the template from stdin (- with --engine)", async () => {
  const fromData = await render([join(work, "invoice.ejs"), "--data", "-"], JSON.stringify({ ...data, number: "STDIN-1" }));
  expect(fromData.code).toBe(0);
  expect(await pdfText(fromData.stdout)).toContain("Invoice STDIN-1");

  const fromTemplate = await render(["-", "--engine", "raw"], "<p>raw from stdin</p>");
  expect(fromTemplate.code).toBe(0);
  expect(await pdfText(fromTemplate.stdout)).toContain("raw from stdin");
});

test("--options: the API's print options apply (landscape Letter); bad ones exit 2 with validation_failed", async () => {
  writeFileSync(join(work, "options.json"), JSON.stringify({ format: "Letter", landscape: true }));
  const r = await render([page, "--options", join(work, "options.json")]);
  expect(r.code).toBe(0);
  expect((await pdfInfo(r.stdout))["Page size"]).toContain("792 x 612");

  writeFileSync(join(work, "bad-options.json"), JSON.stringify({ scale: 5, page_ranges: "3-1" }));
  const bad = await render([page, "--options", join(work, "bad-options.json")]);
  expect(bad.code).toBe(2);
  expect(bad.stderr).toContain("validation_failed");
  expect(bad.stderr).toContain("options.scale");
  expect(bad.stdout.length).toBe(0);

  // Post-processing runs in the service only: named and refused, never a PDF printed without it.
  writeFileSync(join(work, "post-options.json"), JSON.stringify({ pdfa: "3b", watermark: { text: "DRAFT" } }));
  const post = await render([page, "--options", join(work, "post-options.json")]);
  expect(post.code).toBe(2);
  expect(post.stderr).toContain("options.watermark, options.pdfa are post-processing");
  expect(post.stdout.length).toBe(0);
});

test("exit 2 for the template's faults in the EJS sandbox, with the API's failure codes", async () => {
  const thrown = await render(["-", "--engine", "ejs"], "<h1>Invoice</h1>\n<p>Total:</p>\n<p><%= customer.name %></p>\n");
  expect(thrown.code).toBe(2);
  // The cause first, then EJS's context lines (tests/integration/ejs.test.ts: the API says the same).
  expect(thrown.stderr.split("\n")[0]).toBe(
    "reportgen: render failed: template_error: ReferenceError: customer is not defined (template line 3)",
  );
  expect(thrown.stderr).toContain(" >> 3| <p><%= customer.name %></p>");
  expect(thrown.stdout.length).toBe(0);
  expect(thrown.leftovers).toEqual([]);

  const syntax = await render(["-", "--engine", "ejs"], "<p>a</p>\n<p><% if (x) { %></p>\n");
  expect(syntax.code).toBe(2);
  expect(syntax.stderr).toStartWith("reportgen: render failed: template_error: SyntaxError: ");
  expect(syntax.stderr).toContain("at the end of the template");
  expect(syntax.stderr).not.toContain("EJS-Lint");
  expect(syntax.stderr).not.toContain("async: true");
  expect(syntax.stderr.trim().split("\n")).toHaveLength(1);

  const slow = await render(["-", "--engine", "ejs", "--template-timeout", "200ms"], "<% while (true) {} %>");
  expect(slow.code).toBe(2);
  expect(slow.stderr).toContain("template_timeout");
});

test("exit 2 for faults found in Chromium or in the data, with the API's codes", async () => {
  // A fault found in Chromium rather than in the sandbox: the page never becomes ready.
  writeFileSync(join(work, "wait.json"), JSON.stringify({ wait_for: { selector: "#never" } }));
  const never = await render(["-", "--engine", "raw", "--options", join(work, "wait.json"), "--render-timeout", "1s"], "<p>waiting</p>");
  expect(never.code).toBe(2);
  expect(never.stderr).toContain("readiness_timeout");

  const badData = await render([join(work, "invoice.ejs"), "--data", "-"], "[1, 2]");
  expect(badData.code).toBe(2);
  expect(badData.stderr).toContain("validation_failed: data must be a JSON object");
});

test("an asset: reference exits 2 with asset_not_found: the command line has no asset library", async () => {
  const r = await render(["-", "--engine", "raw"], `<img src="asset:logo.png">`);
  expect(r.code).toBe(2);
  expect(r.stderr).toContain("asset_not_found");
  expect(r.stderr).toContain("asset:logo.png");
});

test("exit 1 for the service's fault: no Chromium, with the fix; a failed render leaves OUT untouched", async () => {
  const out = join(work, "kept.pdf");
  writeFileSync(out, "previous");
  const r = await render([page, "-o", out, "--chromium-path", join(work, "no-chromium")]);
  expect(r.code).toBe(1);
  expect(r.stderr).toContain(`Chromium was not found at ${join(work, "no-chromium")}`);
  expect(r.stderr).toContain("apt-get install chromium-headless-shell");
  expect(r.stderr).toContain("--chromium-path");
  expect(readFileSync(out, "utf8")).toBe("previous");
  expect(r.leftovers).toEqual([]);

  // A Chromium that does not start: exit 1, saying how it ended.
  const falseStart = await render([page, "--chromium-path", "/bin/false"]);
  expect(falseStart.code).toBe(1);
  expect(falseStart.stderr).toContain("Chromium at /bin/false did not start");
  expect(falseStart.stderr).toContain("exitCode=1");
  expect(falseStart.leftovers).toEqual([]);

  // OUT cannot be written (its folder is a file): exit 1, saying where and why; nothing is left behind.
  const unwritable = await render([page, "-o", join(out, "x.pdf")]);
  expect(unwritable.code).toBe(1);
  expect(unwritable.stderr).toContain(`the PDF could not be written to ${join(out, "x.pdf")}`);
  expect(unwritable.leftovers).toEqual([]);
});

test("bad command lines: a clear message and exit 2, before any Chromium starts", async () => {
  const cases: { args: string[]; says: string }[] = [
    { args: [], says: "render needs a TEMPLATE" },
    { args: [join(work, "data.json")], says: "give --engine ejs or --engine raw" },
    { args: [page, "--engine", "pug"], says: "--engine must be ejs or raw" },
    { args: [join(work, "missing.ejs")], says: "no such file" },
    { args: [page, "--frobnicate"], says: "frobnicate" },
    { args: [page, page], says: "one TEMPLATE" },
  ];
  for (const c of cases) {
    const r = await render(c.args);
    expect(r.code, c.args.join(" ")).toBe(2);
    expect(r.stderr, c.args.join(" ")).toContain(c.says);
  }
  const both = await render(["-", "--engine", "ejs", "--data", "-"], "{}");
  expect(both.code).toBe(2);
  expect(both.stderr).toContain("cannot both come from stdin");
});

test("Ctrl-C while Chromium works: exit 130, Chromium gone, the temporary folder removed", async () => {
  const box = mkdtempSync(join(work, "sigint-"));
  const tmp = join(box, "tmp");
  mkdirSync(tmp);
  writeFileSync(join(work, "wait-long.json"), JSON.stringify({ wait_for: { selector: "#never" } }));
  const p = Bun.spawn([...sourceCommand, "render", page, "--options", join(work, "wait-long.json"), "--render-timeout", "60s"], {
    cwd: box,
    stdout: "pipe",
    stderr: "pipe",
    env: { ...process.env, TMPDIR: tmp, BUN_RUNTIME_TRANSPILER_CACHE_PATH: "0" },
  });
  // Wait until Chromium runs with its profile in the render's temporary folder.
  const chromiumUp = () => findProcesses(`--user-data-dir=${tmp}/`).length > 0;
  for (let i = 0; !chromiumUp(); i++) {
    if (i > 600 || p.exitCode !== null) throw new Error(`Chromium did not start: ${await new Response(p.stderr).text()}`);
    await Bun.sleep(50);
  }
  p.kill("SIGINT");
  expect(await p.exited).toBe(130);
  expect(chromiumUp()).toBe(false);
  expect(readdirSync(tmp)).toEqual([]);
});
