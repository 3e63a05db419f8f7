// options.chunk's pure parts: the data each chunk gets, the refusals, the page number pages and the
// joined outline (chunk-options.ts, chunk-join.ts).
import { describe, expect, test } from "bun:test";
import { chunkOutlineUpdate, type OutlineNode } from "../../src/pdf/chunk-join";
import { chunkCount, chunkData, chunkProblems, valueAt } from "../../src/pdf/chunk-options";

describe("the data of a chunk", () => {
  test("the array at a dotted path is replaced by the slice; the rest and the original stay as they were", () => {
    const data = { title: "T", ledger: { rows: [1, 2, 3], owner: "A" } };
    const d = chunkData(data, "ledger.rows", [3], { index: 1, count: 2, first_row: 2 });
    expect(d).toEqual({ title: "T", ledger: { rows: [3], owner: "A" }, chunk: { index: 1, count: 2, first_row: 2 } });
    expect(data.ledger.rows).toEqual([1, 2, 3]);
  });

  test("valueAt follows own keys only", () => {
    expect(valueAt({ a: { b: [1] } }, "a.b")).toEqual([1]);
    expect(valueAt({ a: [1] }, "a.length")).toBeUndefined();
    expect(valueAt({}, "constructor")).toBeUndefined();
  });

  test("chunk counts round up, and an empty array is one chunk", () => {
    expect(chunkCount(3000, 1000)).toBe(3);
    expect(chunkCount(3001, 1000)).toBe(4);
    expect(chunkCount(0, 1000)).toBe(1);
  });
});

describe("chunkProblems", () => {
  const ok = { engine: "ejs", data: { rows: [1, 2] } };
  const fields = (c: Parameters<typeof chunkProblems>[0], o: Parameters<typeof chunkProblems>[1], max = 1000) =>
    chunkProblems(c, o, max).map((p) => p.field);
  test("a good request has none", () => expect(chunkProblems({ array: "rows", size: 100 }, ok, 1000)).toEqual([]));
  test("a path that is not one", () => expect(fields({ array: "rows[0]", size: 100 }, ok)).toEqual(["options.chunk.array"]));
  test("more rows than --chunk-max-rows", () => expect(fields({ array: "rows", size: 100 }, ok, 1)).toEqual(["data.rows"]));
  test("more than 1,000 chunks", () =>
    expect(fields({ array: "rows", size: 100 }, { engine: "ejs", data: { rows: new Array(100_001).fill(0) } }, 1e6)).toEqual([
      "options.chunk.size",
    ]));
  test("Chromium's page numbers in a header, unquoted class included", () => {
    expect(fields({ array: "rows", size: 100 }, { ...ok, header_template: "<span class=totalPages></span>" })).toEqual([
      "options.header_template",
    ]);
    expect(fields({ array: "rows", size: 100 }, { ...ok, footer_template: '<span class="date"></span>' })).toEqual([]);
  });
});

describe("the joined outline", () => {
  const node = (title: string, page: number, kids: OutlineNode[] = []): OutlineNode => ({ title, page, view: ["/XYZ", 0, 800, 0], kids });
  const doc = {
    maxobjectid: 100,
    pages: ["1 0 R", "2 0 R", "3 0 R", "4 0 R", "5 0 R"],
    rootRef: "50 0 R",
    root: { "/Type": "/Catalog", "/Pages": "49 0 R", "/Outlines": "60 0 R", "/StructTreeRoot": "70 0 R", "/MarkInfo": { "/Marked": true } },
  };

  test("each part's entries open their page moved by the pages before; the first part's tree and outline go", () => {
    const u = chunkOutlineUpdate(doc, [
      { path: "a", pages: 2, outline: [node("A", 0, [node("A.1", 1)])] },
      { path: "b", pages: 3, outline: [node("B", 1)] },
    ]);
    const objs = u.qpdf[1] as Record<string, { value: Record<string, unknown> }>;
    const root = objs["obj:50 0 R"]!.value;
    expect(root["/StructTreeRoot"]).toBeUndefined();
    expect(root["/MarkInfo"]).toBeUndefined();
    expect(root["/Outlines"]).toBe("101 0 R");
    const outlines = objs["obj:101 0 R"]!.value;
    expect(outlines["/Count"]).toBe(3);
    const byTitle = Object.fromEntries(Object.values(objs).map((o) => [o.value["/Title"], o.value]));
    expect((byTitle["u:A"]!["/Dest"] as string[])[0]).toBe("1 0 R");
    expect((byTitle["u:A.1"]!["/Dest"] as string[])[0]).toBe("2 0 R");
    expect((byTitle["u:B"]!["/Dest"] as string[])[0]).toBe("4 0 R");
    expect(byTitle["u:A"]!["/Next"]).toBe(outlines["/Last"]);
    expect(byTitle["u:A"]!["/Count"]).toBe(1);
  });

  test("without headings, no outline at all", () => {
    const u = chunkOutlineUpdate(doc, [{ path: "a", pages: 5, outline: [] }]);
    const objs = u.qpdf[1] as Record<string, { value: Record<string, unknown> }>;
    expect(Object.keys(objs)).toEqual(["obj:50 0 R"]);
    expect(objs["obj:50 0 R"]!.value["/Outlines"]).toBeUndefined();
  });
});
