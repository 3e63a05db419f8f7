// pageNumbersUpdate (src/pdf/page-numbers-update.ts), pure: what it writes into each page, and the
// pages it leaves to the overlay. Real PDFs: tests/integration/toc-page-numbers.test.ts, chunked-report.test.ts.
import { describe, expect, test } from "bun:test";
import { pageNumberContent } from "../../src/pdf/overlay-pdf";
import { pageNumbersUpdate } from "../../src/pdf/page-numbers-update";
import type { QpdfLayout } from "../../src/pdf/qpdf-layout";

const size = { width: 595, height: 842 };
const layout = (pages: Record<string, unknown>[]): QpdfLayout => ({
  pages: pages.map((_, i) => ({ object: `${10 + i} 0 R` })),
  qpdf: [{ maxobjectid: 40 }, Object.fromEntries(pages.map((value, i) => [`obj:${10 + i} 0 R`, { value }]))],
});
const page = (extra: Record<string, unknown> = {}) => ({
  "/Type": "/Page",
  "/Contents": "20 0 R",
  "/Resources": { "/Font": { "/F4": "21 0 R" }, "/ProcSet": ["/PDF"] },
  ...extra,
});
type Update = { qpdf: [{ maxobjectid: number }, Record<string, { value?: Record<string, unknown>; stream?: { data: string } }>] };
const data = (u: Update, ref: string) => Buffer.from(u.qpdf[1][`obj:${ref}`]!.stream!.data, "base64").toString("latin1");

describe("pageNumbersUpdate", () => {
  test("each page: a q before its content, then Q and its number in one more font; new objects after the last", () => {
    const u = pageNumbersUpdate(
      layout([page(), page({ "/Contents": ["22 0 R", "23 0 R"] })]),
      ["1/2", "2/2"],
      [size, size],
      "bottom-center",
    ) as Update;
    expect(u.qpdf[0].maxobjectid).toBe(44);
    expect(u.qpdf[1]["obj:41 0 R"]!.value).toMatchObject({ "/BaseFont": "/Helvetica-Bold" });
    expect(data(u, "42 0 R")).toBe("q\n");
    const first = u.qpdf[1]["obj:10 0 R"]!.value!;
    expect(first["/Contents"]).toEqual(["42 0 R", "20 0 R", "43 0 R"]);
    expect(first["/Resources"]).toEqual({ "/Font": { "/F4": "21 0 R", "/RGpn": "41 0 R" }, "/ProcSet": ["/PDF"] });
    expect(data(u, "43 0 R")).toBe(`\nQ ${pageNumberContent("1/2", size, "bottom-center", "RGpn")}`);
    expect(u.qpdf[1]["obj:11 0 R"]!.value!["/Contents"]).toEqual(["42 0 R", "22 0 R", "23 0 R", "44 0 R"]);
    expect(data(u, "44 0 R")).toContain("<322f32> Tj");
  });

  test("with a pending update (a chunked report's outline): its objects kept, the new ones numbered after its own", () => {
    const pending = {
      qpdf: [
        { maxobjectid: 40, jsonversion: 2 },
        {
          "obj:1 0 R": { value: { "/Type": "/Catalog", "/Outlines": "41 0 R" } },
          "obj:41 0 R": { value: { "/Type": "/Outlines" } },
          "obj:43 0 R": { value: {} },
        },
      ],
    } as Update & { qpdf: [{ maxobjectid: number; jsonversion: number }, Record<string, unknown>] };
    const u = pageNumbersUpdate(layout([page()]), ["1"], [size], "bottom-center", pending as never) as Update;
    expect(u.qpdf[1]["obj:1 0 R"]).toEqual(pending.qpdf[1]["obj:1 0 R"] as never);
    expect(u.qpdf[1]["obj:41 0 R"]).toEqual({ value: { "/Type": "/Outlines" } });
    expect(u.qpdf[1]["obj:44 0 R"]!.value).toMatchObject({ "/BaseFont": "/Helvetica-Bold" });
    expect(u.qpdf[1]["obj:10 0 R"]!.value!["/Contents"]).toEqual(["45 0 R", "20 0 R", "46 0 R"]);
    expect(u.qpdf[0].maxobjectid).toBe(46);
  });

  test("a font name a page already uses is not taken", () => {
    const u = pageNumbersUpdate(layout([page({ "/Resources": { "/Font": { "/RGpn": "21 0 R" } } })]), ["1"], [size], "top-left") as Update;
    expect(Object.keys(u.qpdf[1]["obj:10 0 R"]!.value!["/Resources"] as object)).toEqual(["/Font"]);
    expect((u.qpdf[1]["obj:10 0 R"]!.value!["/Resources"] as Record<string, object>)["/Font"]).toEqual({
      "/RGpn": "21 0 R",
      "/RGpnx": "41 0 R",
    });
  });

  test("pages whose resources or fonts are shared or inherited are left to the overlay", () => {
    expect(
      pageNumbersUpdate(layout([page(), page({ "/Resources": "30 0 R" })]), ["1", "2"], [size, size], "bottom-center"),
    ).toBeUndefined();
    expect(pageNumbersUpdate(layout([page({ "/Resources": { "/Font": "31 0 R" } })]), ["1"], [size], "bottom-center")).toBeUndefined();
    const inherited = page();
    delete (inherited as Record<string, unknown>)["/Resources"];
    expect(pageNumbersUpdate(layout([inherited]), ["1"], [size], "bottom-center")).toBeUndefined();
  });
});
