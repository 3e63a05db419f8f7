import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { countPdfPages } from "../../src/render/pdf-page-count";

/** The regular expressions countPdfPages replaced: the oracle it must agree with. */
function regexCount(pdf: Uint8Array): number {
  return (
    Buffer.from(pdf)
      .toString("latin1")
      .replace(/\bstream\r?\n[\s\S]*?\bendstream\b/g, "")
      .replace(/\((?:\\[\s\S]|[^\\)])*\)/g, "()")
      .match(/\/Type\s*\/Page(?![a-zA-Z])/g)?.length ?? 0
  );
}

const pdf = (s: string) => Buffer.from(s, "latin1");
const page = (n: number) => `${n} 0 obj\n<</Type /Page\n/Parent 2 0 R>>\nendobj\n`;

describe("countPdfPages", () => {
  const examples = join(import.meta.dir, "../../docs/examples");
  test.each(readdirSync(examples).filter((f) => f.endsWith(".pdf")))("agrees with the regular expressions on %s", (f) => {
    const bytes = readFileSync(join(examples, f));
    expect(countPdfPages(bytes)).toBe(regexCount(bytes));
    expect(countPdfPages(bytes)).toBeGreaterThan(0);
  });

  const cases: [string, string, number][] = [
    ["pages, not the page tree", `%PDF-1.4\n2 0 obj\n<</Type /Pages /Count 2>>\nendobj\n${page(3)}${page(4)}`, 2],
    ["a stream body that spells a page", `${page(3)}5 0 obj\n<</Length 20>>\nstream\n/Type /Page /Type /Page\nendstream\nendobj\n`, 1],
    ["a CRLF after the keyword", `${page(3)}5 0 obj\n<<>>stream\r\n/Type /Page\r\nendstream\nendobj\n`, 1],
    [
      "endstream inside a word does not end the body",
      `${page(3)}5 0 obj\n<<>>\nstream\nxendstream /Type /Page endstreamx\nendstream\nendobj\n`,
      1,
    ],
    ["upstream is not a keyword", `/Upstream\n/Type /Page\n${page(3)}`, 2],
    ["a literal string that spells a page", `1 0 obj\n<</Title (a \\) /Type /Page)>>\nendobj\n${page(3)}`, 1],
    ["a body without its end is read as text", `${page(3)}5 0 obj\n<<>>\nstream\n/Type /Page`, 2],
    ["two streams, a page between them", `<<>>\nstream\nA\nendstream\n${page(3)}<<>>\nstream\n/Type /Page\nendstream\n`, 1],
    ["empty", "", 0],
  ];
  test.each(cases)("%s", (_, text, pages) => {
    expect(countPdfPages(pdf(text))).toBe(pages);
    expect(regexCount(pdf(text))).toBe(pages);
  });

  test("reads a view into a larger buffer by its own bounds", () => {
    const whole = pdf(`/Type /Page\n${page(3)}/Type /Page\n`);
    const start = "/Type /Page\n".length;
    const view = new Uint8Array(whole.buffer, whole.byteOffset + start, page(3).length);
    expect(countPdfPages(view)).toBe(1);
  });
});
