// The pure parts of stored templates: fontconfig charset parsing and glyph coverage, the URLs a page
// fetches and why the network policy refuses them, JSON Pointers as API field names, and how a
// version's options and a request's are merged.
import { describe, expect, test } from "bun:test";
import { missingGlyphs, parseCharsets, stringsOf } from "../../src/modules/templates/glyphs";
import { fieldOf } from "../../src/modules/templates/json-schema";
import { blockedResources, fetchedUrls, refusal } from "../../src/modules/templates/resources";
import { mergeOptions } from "../../src/pdf/options";

describe("glyph coverage", () => {
  test("fc-list charsets merge into sorted, non-overlapping ranges", () => {
    expect(parseCharsets("20-7e a0-17f\n41-5a 180 4e00-9fff\n\n300-36f 200-2ff")).toEqual([
      [0x20, 0x7e],
      [0xa0, 0x180],
      [0x200, 0x36f],
      [0x4e00, 0x9fff],
    ]);
  });

  test("reports uncovered visible characters once each, with counts; ignores ASCII, controls and joiners", () => {
    const ranges = parseCharsets("20-7e a0-ff 4e00-9fff");
    expect(missingGlyphs(ranges, ["Hello é 中", "tab\t zwj\u200d vs\ufe0f"])).toEqual([]);
    const [w] = missingGlyphs(ranges, ["\uE000 and \uE000 and \u{1FA77}"]);
    expect(w!.code).toBe("missing_glyphs");
    expect(w!.characters).toEqual([
      { char: "\uE000", code_point: "U+E000", count: 2 },
      { char: "\u{1FA77}", code_point: "U+1FA77", count: 1 },
    ]);
    expect(w!.message).toContain("U+E000, U+1FA77");
  });

  test("strings of a JSON value, keys included, however deep", () => {
    expect(stringsOf({ a: ["x", { b: "y" }], n: 1 }).sort()).toEqual(["a", "b", "n", "x", "y"]);
  });
});

describe("resources the network policy refuses", () => {
  test("finds what the page fetches, not links", () => {
    const html = `<a href="https://a.example/x">x</a><img src='https://i.example/1.png' srcset="s.png 1x, data:image/png;base64,AA== 2x">
      <link rel="stylesheet" href="https://c.example/s.css"><svg><image href="https://svg.example/i.png"/></svg>
      <style>@import "https://f.example/f.css"; p { background: url(https://b.example/bg.png) }</style><img src="#local">`;
    expect(fetchedUrls(html).sort()).toEqual(
      [
        "https://i.example/1.png",
        "s.png",
        "data:image/png;base64,AA==",
        "https://c.example/s.css",
        "https://svg.example/i.png",
        "https://f.example/f.css",
        "https://b.example/bg.png",
      ].sort(),
    );
  });

  test.each([
    ["data:image/png;base64,AA==", [], undefined],
    ["https://cdn.example.com/a.png", [], "no network resources"],
    ["https://cdn.example.com/a.png", ["cdn.example.com"], undefined],
    ["https://cdn.example.com/a.png", ["*.example.com"], undefined],
    ["https://evil.example.org/a.png", ["cdn.example.com"], "not on the operator's --allow-hosts"],
    ["http://cdn.example.com/a.png", ["cdn.example.com"], "only https"],
    ["file:///etc/passwd", ["cdn.example.com"], "only https"],
    ["https://169.254.169.254/latest", ["169.254.169.254"], "private, loopback or link-local"],
    ["logo.png", ["cdn.example.com"], "relative URL"],
  ] as const)("%s with allow-list %j", (url, hosts, why) => {
    const r = refusal(url, hosts);
    if (why === undefined) expect(r).toBeUndefined();
    else expect(r).toContain(why);
  });

  test("one warning listing each refused URL once", () => {
    const [w] = blockedResources('<img src="http://169.254.169.254/a"><img src="http://169.254.169.254/a"><img src="data:,x">', []);
    expect(w!.resources).toEqual([{ url: "http://169.254.169.254/a", reason: expect.stringContaining("no network resources") }]);
    expect(blockedResources('<img src="data:,x">', [])).toEqual([]);
  });
});

test("JSON Pointers become the API's field names", () => {
  expect(fieldOf("data", "")).toBe("data");
  expect(fieldOf("data", "/lines/0/price")).toBe("data.lines[0].price");
  expect(fieldOf("data", "/a~1b/c~0d/with space")).toBe('data["a/b"]["c~d"]["with space"]');
});

describe("options: the version's are defaults, the request's win field by field", () => {
  test("a field the request gives replaces the version's whole, except margin and metadata, merged inside", () => {
    expect(
      mergeOptions(
        {
          format: "A5",
          landscape: true,
          margin: { top: "20mm", left: "5mm" },
          metadata: { title: "T", author: "A" },
          wait_for: { selector: "#ready" },
        },
        { landscape: false, margin: { top: "10mm" }, metadata: { author: "B" }, wait_for: { delay_ms: 10 } },
      ),
    ).toEqual({
      format: "A5",
      landscape: false,
      margin: { top: "10mm", left: "5mm" },
      metadata: { title: "T", author: "B" },
      wait_for: { delay_ms: 10 },
    });
  });

  test("either side absent", () => {
    expect(mergeOptions(undefined, { scale: 2 })).toEqual({ scale: 2 });
    expect(mergeOptions({ scale: 2 }, undefined)).toEqual({ scale: 2 });
    expect(mergeOptions(undefined, undefined)).toBeUndefined();
  });
});
