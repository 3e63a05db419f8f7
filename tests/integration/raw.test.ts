// Engine raw and print options: HTML printed as given, no templating, data ignored.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { readFileSync } from "node:fs";
import { generate, pdfInfo, pdfText, type TestApp, useRenderApp } from "../helpers/app";
import { sharedMissing, sharedPath, testIf } from "../helpers/shared";

// Real Chromium and sandboxes on a 2-core machine: a busy machine must slow tests, not fail them.
setDefaultTimeout(60_000);

/** The public invoice fixture, under shared/ beside the clone. */
const INVOICE = "fixtures/templates/invoice.html";

let t: TestApp;
useRenderApp((a) => (t = a));

const flat = (s: string) => s.replace(/[ \t]+/g, " ");
/** Width and height in points from pdfinfo's "Page size" ("612 x 792 pts (letter)"). */
function pageSize(info: Record<string, string>): { w: number; h: number; name: string } {
  const m = /^([\d.]+) x ([\d.]+) pts(?: \((.+)\))?/.exec(info["Page size"] ?? "");
  if (!m) throw new Error(`unexpected Page size: ${info["Page size"]}`);
  return { w: Number(m[1]), h: Number(m[2]), name: m[3] ?? "" };
}

/** A4 is 595.28 x 841.89 pt; Chromium rounds to its own units (595.92 x 842.88). */
function expectA4Portrait(size: { w: number; h: number }) {
  expect(Math.abs(size.w - 595.28)).toBeLessThan(2);
  expect(Math.abs(size.h - 841.89)).toBeLessThan(2);
}

describe("engine raw", () => {
  test("EJS tags are printed literally, not evaluated", async () => {
    const { report, pdf } = await generate(t, { engine: "raw", html_template: "<p>RAW[<%= x %>]</p>" });
    expect(report.status).toBe("succeeded");
    expect(report.engine).toBe("raw");
    expect(report.attempts).toBe(1);
    const text = flat(await pdfText(pdf!));
    expect(text).toContain("RAW[<%= x %>]");
  });

  test("data is ignored, whatever its shape (an array too)", async () => {
    const arr = await generate(t, { engine: "raw", html_template: "<p>DATA[<%= x %>]</p>", data: [1, 2, { x: "INJECTED" }] });
    expect(arr.report.status).toBe("succeeded");
    const text = flat(await pdfText(arr.pdf!));
    expect(text).toContain("DATA[<%= x %>]");
    expect(text).not.toContain("INJECTED");

    const obj = await generate(t, { engine: "raw", html_template: "<p>OBJ[<%= x %>]</p>", data: { x: "INJECTED" } });
    expect(obj.report.status).toBe("succeeded");
    const objText = flat(await pdfText(obj.pdf!));
    expect(objText).toContain("OBJ[<%= x %>]");
    expect(objText).not.toContain("INJECTED");
  });

  testIf(sharedMissing(INVOICE))("the sample invoice prints as one A4 page with its content", async () => {
    const html = readFileSync(sharedPath(INVOICE), "utf8");
    const { report, pdf } = await generate(t, { engine: "raw", html_template: html });
    expect(report.status).toBe("succeeded");
    const info = await pdfInfo(pdf!);
    expect(info.Pages).toBe("1");
    expect(report.page_count).toBe(1);
    const size = pageSize(info);
    expect(size.name).toBe("A4");
    expectA4Portrait(size);
    const text = await pdfText(pdf!);
    expect(text).toContain("Invoice #");
    expect(text).toContain("Total");
  });
});

describe("printing waits for the page's load event", () => {
  // What finishes only at or after load: a frame's document, and a load handler's output.
  const framed = (mark: string) => `<p>outer</p><iframe srcdoc="<p>${mark}</p>" width="400" height="100"></iframe>`;
  const onLoad = (mark: string) =>
    `<p>outer</p><img src="data:image/gif;base64,R0lGODlhAQABAAAAACw="><script>addEventListener('load', function () { document.body.insertAdjacentHTML('beforeend', '<p>${mark}</p>') })</script>`;

  test("frames and load handlers are in the PDF, also after scripted reports reset the pages", async () => {
    // Alternating script and no script makes pages go through the about:blank reset, whose own load
    // event must not be taken for the next report's.
    const jobs = Array.from({ length: 8 }, (_, i) =>
      i % 2 ? { html: onLoad(`LOADMARK${i}`), mark: `LOADMARK${i}` } : { html: framed(`FRAMEMARK${i}`), mark: `FRAMEMARK${i}` },
    );
    for (const j of jobs) {
      const { report, pdf } = await generate(t, { engine: "raw", html_template: j.html });
      expect(report.status).toBe("succeeded");
      expect(await pdfText(pdf!)).toContain(j.mark);
    }
  });
});

describe("page count", () => {
  test('page_count is the real page count even when the title or a link contains "/Type /Page"', async () => {
    const { report, pdf } = await generate(t, {
      engine: "raw",
      html_template: "<title>Q /Type /Page /Type /Page</title><p>one page <a href='https://example.com/Type/Page/Type/Page'>link</a></p>",
    });
    expect(report.status).toBe("succeeded");
    const info = await pdfInfo(pdf!);
    expect(info.Pages).toBe("1");
    expect(report.page_count).toBe(Number(info.Pages));
  });

  test("page_count matches pdfinfo for a multi-page document", async () => {
    const html = Array.from({ length: 4 }, (_, i) => `<div style="page-break-after:always">p${i + 1}</div>`).join("");
    const { report, pdf } = await generate(t, { engine: "raw", html_template: html });
    expect(report.status).toBe("succeeded");
    expect(report.page_count).toBe(Number((await pdfInfo(pdf!)).Pages));
    expect(report.page_count).toBe(4);
  });
});

describe("print options", () => {
  test("format Letter + landscape gives 792 x 612 pt pages", async () => {
    const { report, pdf } = await generate(t, {
      engine: "raw",
      html_template: "<p>letter landscape</p>",
      options: { format: "Letter", landscape: true },
    });
    expect(report.status).toBe("succeeded");
    const size = pageSize(await pdfInfo(pdf!));
    expect(Math.abs(size.w - 792)).toBeLessThan(2);
    expect(Math.abs(size.h - 612)).toBeLessThan(2);
    expect(size.name.toLowerCase()).toContain("letter");
  });

  test("the default is A4 portrait", async () => {
    const { pdf } = await generate(t, { engine: "raw", html_template: "<p>default</p>" });
    const size = pageSize(await pdfInfo(pdf!));
    expectA4Portrait(size);
  });

  test("CSS @page size wins over format", async () => {
    const { report, pdf } = await generate(t, {
      engine: "raw",
      html_template: "<style>@page { size: A5 }</style><p>a5 page</p>",
      options: { format: "Letter" },
    });
    expect(report.status).toBe("succeeded");
    const size = pageSize(await pdfInfo(pdf!));
    // A5 = 148 x 210 mm = 419.53 x 595.28 pt
    expect(Math.abs(size.w - 419.53)).toBeLessThan(1.5);
    expect(Math.abs(size.h - 595.28)).toBeLessThan(1.5);
    expect(await pdfText(pdf!)).toContain("a5 page");
  });

  test("a misspelled option is refused with 422, as the published schema (additionalProperties: false) says", async () => {
    // A client that writes "landscpae" must learn of it, not silently get a portrait PDF.
    const res = await t.request("POST", "/api/v1/generate-pdf-async", {
      body: { engine: "raw", html_template: "<p>x</p>", options: { landscpae: true } },
    });
    expect(res.status).toBe(422);
    expect(((await res.json()) as { error: string }).error).toBe("validation_failed");
  });

  test("invalid formats, flags and margins are refused with 422 before anything is queued", async () => {
    const count = async () => ((await (await t.request("GET", "/api/v1/reports?limit=100")).json()) as { data: unknown[] }).data.length;
    const reportsSoFar = await count();
    for (const options of [{ format: "B7" }, { landscape: "yes" }, { margin: { top: "1em" } }, { scale: 5 }]) {
      const res = await t.request("POST", "/api/v1/generate-pdf-async", { body: { engine: "raw", html_template: "<p>x</p>", options } });
      expect(res.status).toBe(422);
      expect(((await res.json()) as { error: string }).error).toBe("validation_failed");
    }
    expect(await count()).toBe(reportsSoFar);
  });
});
