// `reportgen diff A.pdf B.pdf` as a real process, on PDFs printed by `reportgen render` (real Chromium):
// a recoloured word and a moved line are caught on the page they are on, a comment alone is the same,
// an added page is a change, and bad input exits 2. The diff PNGs are checked by pngcheck (Debian's) and
// decoded by the tests' own PNG reader, not the product's.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pngPixels } from "../helpers/png-pixels";
import { runCli, sourceCommand } from "../helpers/process";

const work = mkdtempSync(join(tmpdir(), "reportgen-diff-test-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const BASE = `<html><body style="font-family:sans-serif;margin:40px">
<h1>Invoice</h1><p>Total: <b style="color:#000">42 EUR</b></p><p style="margin-top:20px">Thank you</p>
<div style="page-break-before:always">Page two</div></body></html>`;
const VERSIONS: Record<string, string> = {
  base: BASE,
  // The word "42 EUR" in red, and the last line 30 px lower: both on page 1.
  changed: BASE.replace("color:#000", "color:#c00").replace("margin-top:20px", "margin-top:50px"),
  comment: BASE.replace("<h1>", "<!-- reviewed --><h1>"),
  longer: BASE.replace("</body>", `<div style="page-break-before:always">Page three</div></body>`),
};

const pdf = (name: string) => join(work, `${name}.pdf`);
const diff = (...args: string[]) => runCli(sourceCommand, ["diff", ...args]);

beforeAll(() => {
  for (const [name, html] of Object.entries(VERSIONS)) {
    writeFileSync(join(work, `${name}.html`), html);
    const r = runCli(sourceCommand, ["render", join(work, `${name}.html`), "-o", pdf(name), "--data-dir", join(work, "data")]);
    expect(r.code, r.stderr).toBe(0);
  }
}, 120_000);

test("the same PDF and one whose template changed only in a comment: exit 0, nothing printed", () => {
  for (const other of ["base", "comment"]) {
    const r = diff(pdf("base"), pdf(other));
    expect({ code: r.code, stdout: r.stdout }).toEqual({ code: 0, stdout: "" });
  }
}, 60_000);

test("a recoloured word and a moved line: exit 1, one line for page 1, its diff PNG red where they changed", () => {
  const out = join(work, "out");
  const r = diff(pdf("base"), pdf("changed"), "--out", out);
  expect(r.code).toBe(1);
  const lines = r.stdout.trim().split("\n");
  expect(lines).toHaveLength(1);
  expect(lines[0]).toMatch(/^page 1: \d+\.\d\d% of pixels changed .*page-001\.png$/);
  expect(readdirSync(out)).toEqual(["page-001.png"]);
  const file = join(out, "page-001.png");
  const check = Bun.spawnSync(["pngcheck", file]);
  expect(check.exitCode, check.stdout.toString()).toBe(0);
  const px = pngPixels(readFileSync(file));
  // A4 at 96 dpi, drawn at the paper's own size (Chromium's A4 is 8.28 x 11.71 in, a pixel more).
  expect([px.width, px.height]).toEqual([794, 1123]);
  const red = (x0: number, y0: number, x1: number, y1: number) => {
    let n = 0;
    for (let y = y0; y < y1; y++)
      for (let x = x0; x < x1; x++) {
        const i = (y * px.width + x) * px.channels;
        if (px.data[i] === 255 && px.data[i + 1]! < 120 && px.data[i + 2]! < 120) n++;
      }
    return n;
  };
  // Red in the page's top band (the word, the moved line), none below it (nothing else changed).
  expect(red(0, 0, px.width, 250)).toBeGreaterThan(100);
  expect(red(0, 300, px.width, px.height)).toBe(0);
}, 60_000);

test("a page added is a change: exit 1 and the line names it", () => {
  const r = diff(pdf("base"), pdf("longer"));
  expect(r.code).toBe(1);
  expect(r.stdout.trim()).toBe("page 3: added");
  expect(diff(pdf("longer"), pdf("base")).stdout.trim()).toBe("page 3: removed");
}, 60_000);

test("bad input exits 2 with a message: a missing file, a file that is no PDF, a bad --tolerance, one file", () => {
  writeFileSync(join(work, "not.pdf"), "hello");
  const cases = [
    [[pdf("base"), join(work, "missing.pdf")], /missing\.pdf: no such file/],
    [[pdf("base"), join(work, "not.pdf")], /not\.pdf cannot be read as a PDF/],
    [[pdf("base"), pdf("base"), "--tolerance", "2"], /--tolerance must be a number from 0 to 1/],
    [[pdf("base")], /diff takes two PDF files/],
  ] as const;
  for (const [args, message] of cases) {
    const r = diff(...args);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
  }
}, 60_000);

test("--tolerance 1 ignores every colour change (only geometry beyond the page would count)", () => {
  expect(diff(pdf("base"), pdf("changed"), "--tolerance", "1").code).toBe(0);
}, 60_000);
