// PDF names in qpdf's JSON (src/pdf/qpdf-name.ts): escapes resolved ("/text/csv", never
// "n:/text#2fcsv", which qpdf 11.3 refuses), "n:" only for bytes that are not UTF-8, and back to PDF
// syntax. tests/integration/pdfa-objects.test.ts checks the same names against the installed qpdf.
import { expect, test } from "bun:test";
import { nameBytes, pdfNameSyntax, qpdfJsonName } from "../../src/pdf/qpdf-name";

/** The JSON form of a name as a file writes it (after its slash). */
const fromFile = (written: string) => qpdfJsonName(nameBytes(Buffer.from(written, "latin1")));

test.each([
  ["text#2fcsv", "/text/csv"],
  ["text#2Fcsv", "/text/csv"],
  ["application#2fvnd.ms-excel", "/application/vnd.ms-excel"],
  ["A#20B", "/A B"],
  ["caf#c3#a9", "/café"],
  ["#f0#9f#a5#94", "/🥔"],
  ["a#23b", "/a#b"],
  ["#2f", "//"],
  ["a#0ab", "/a\nb"],
  ["x#25y#28z#29#3c#3e#5b#5d#7b#7d", "/x%y(z)<>[]{}"],
  ["n:x", "/n:x"],
  ["b:ab", "/b:ab"],
  ["Type", "/Type"],
  // A # without two hex digits stands for itself.
  ["a#zz", "/a#zz"],
  ["a#4", "/a#4"],
  ["", "/"],
])("/%s in a file is %j in qpdf's JSON", (written, json) => {
  expect(fromFile(written)).toBe(json);
});

test("a name that is not UTF-8 is written as qpdf writes it: n: and PDF syntax", () => {
  expect(fromFile("bad#e9")).toBe("n:/bad#e9");
  expect(fromFile("bad\xe9")).toBe("n:/bad#e9");
  expect(fromFile("#c0#af")).toBe("n:/#c0#af"); // an overlong form of "/"
});

test("a name given as text is that text", () => {
  expect(qpdfJsonName("text/csv")).toBe("/text/csv");
  expect(qpdfJsonName("Application/X-Weird!$&^_.+-Type")).toBe("/Application/X-Weird!$&^_.+-Type");
});

test("back to PDF syntax: reserved bytes written #xx, and a name read from it is the same name", () => {
  expect(pdfNameSyntax("/text/csv")).toBe("/text#2fcsv");
  expect(pdfNameSyntax("/A B")).toBe("/A#20B");
  expect(pdfNameSyntax("/café")).toBe("/caf#c3#a9");
  expect(pdfNameSyntax("/a#b")).toBe("/a#23b");
  expect(pdfNameSyntax("n:/bad#e9")).toBe("/bad#e9");
  for (const json of ["/text/csv", "/A B", "/café", "/🥔", "/a#b", "//", "/a\nb", "/x%y(z)<>[]{}", "/n:x", "n:/bad#e9"])
    expect(fromFile(pdfNameSyntax(json).slice(1))).toBe(json);
});
