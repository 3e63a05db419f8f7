// Engine ejs end to end: HTTP submit → EJS sandbox → Chromium → stored PDF → signed link; a template's
// error as the API, the preview and `reportgen render` show it.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { readFileSync, statSync } from "node:fs";
import { fetchLink, generate, pdfInfo, pdfText, type TestApp, useRenderApp } from "../helpers/app";
import { sourceCommand } from "../helpers/process";
import { sharedMissing, sharedPath, testIf } from "../helpers/shared";

// Real Chromium and sandboxes on a 2-core machine: a busy machine must slow tests, not fail them.
setDefaultTimeout(60_000);

/** The public invoice fixture, under shared/ beside the clone. */
const INVOICE = "fixtures/templates/invoice.html";

let t: TestApp;
useRenderApp((a) => (t = a));

/** `reportgen render - --engine ejs` as a process, the template on stdin (no data dir, no key). */
async function renderCli(template: string): Promise<{ code: number; stderr: string }> {
  const p = Bun.spawn([...sourceCommand, "render", "-", "--engine", "ejs"], {
    stdin: new TextEncoder().encode(template),
    stdout: "ignore",
    stderr: "pipe",
    env: { ...process.env, REPORTGEN_LOG_LEVEL: "error" },
  });
  const [stderr, code] = await Promise.all([new Response(p.stderr).text(), p.exited]);
  return { code, stderr };
}

/** pdftotext -layout spreads text; collapse runs of spaces so phrases compare simply. */
const flat = (s: string) => s.replace(/[ \t]+/g, " ");

describe("engine ejs", () => {
  test("<%= %> escapes HTML so the value prints literally; the report's fields are filled in", async () => {
    const before = Date.now();
    const { report, link, pdf } = await generate(t, {
      engine: "ejs",
      html_template: "<h1>Hello <%= name %></h1>",
      data: { name: "<Ada & Co>" },
    });
    expect(report.status).toBe("succeeded");
    expect(report.error).toBeNull();
    expect(pdf).toBeDefined();
    const text = await pdfText(pdf!);
    expect(flat(text)).toContain("Hello <Ada & Co>");
    // No escaping artefacts either.
    expect(text).not.toContain("&lt;");
    expect(text).not.toContain("&amp;");

    const info = await pdfInfo(pdf!);
    expect(report.page_count).toBe(Number(info.Pages));
    expect(report.page_count).toBe(1);
    expect(report.size_bytes).toBe(pdf!.length);
    expect(report.size_bytes).toBe(statSync(t.app.services.spool.pathOf(report.report_id)).size);
    expect(report.attempts).toBe(1);
    expect(report.engine).toBe("ejs");
    const finished = Date.parse(report.finished_at);
    const expires = Date.parse(report.expires_at);
    expect(finished).toBeGreaterThanOrEqual(before - 1000);
    expect(finished).toBeLessThanOrEqual(Date.now() + 1000);
    expect(expires - finished).toBe(t.app.config.retention);
    expect(Date.parse(report.started_at)).toBeLessThanOrEqual(finished);
    expect(Date.parse(report.created_at)).toBeLessThanOrEqual(Date.parse(report.started_at));
    // The PDF behind the link is a PDF.
    expect(new TextDecoder().decode(pdf!.slice(0, 5))).toBe("%PDF-");
    const res = await fetchLink(t, link!);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/pdf");
  });

  test("<%= %> of markup shows the tags themselves; <%- %> inserts the markup unescaped", async () => {
    const escaped = await generate(t, { engine: "ejs", html_template: "<p>E:<%= tag %>:E</p>", data: { tag: "<b>x</b>" } });
    expect(escaped.report.status).toBe("succeeded");
    expect(flat(await pdfText(escaped.pdf!))).toContain("E:<b>x</b>:E");

    const unescaped = await generate(t, { engine: "ejs", html_template: "<p>U:<%- tag %>:U</p>", data: { tag: "<b>bold</b>" } });
    expect(unescaped.report.status).toBe("succeeded");
    const text = flat(await pdfText(unescaped.pdf!));
    expect(text).toContain("U:bold:U");
    expect(text).not.toContain("<b>");
    expect(text).not.toContain("</b>");
  });

  test("loops and conditionals over arrays in data", async () => {
    const template = `<ul>
<% items.forEach(function(it, i){ %>
  <li>ROW<%= i + 1 %>=<%= it.name %><% if (it.qty > 1) { %> MANY<%= it.qty %><% } else { %> ONE<% } %></li>
<% }) %>
</ul>
<% if (items.length === 0) { %><p>EMPTY</p><% } %>
<p>COUNT=<%= items.length %> SUM=<%= items.reduce(function(s, it){ return s + it.qty }, 0) %></p>
<% for (var k = 0; k < tags.length; k++) { %><span>T-<%= tags[k] %></span> <% } %>`;
    const data = {
      items: [
        { name: "alpha", qty: 1 },
        { name: "beta", qty: 3 },
        { name: "gamma", qty: 2 },
      ],
      tags: ["red", "green"],
    };
    const { report, pdf } = await generate(t, { engine: "ejs", html_template: template, data });
    expect(report.status).toBe("succeeded");
    const text = flat(await pdfText(pdf!));
    expect(text).toContain("ROW1=alpha ONE");
    expect(text).toContain("ROW2=beta MANY3");
    expect(text).toContain("ROW3=gamma MANY2");
    expect(text).not.toContain("ROW4");
    expect(text).not.toContain("EMPTY");
    expect(text).toContain("COUNT=3 SUM=6");
    expect(text).toContain("T-red");
    expect(text).toContain("T-green");
    // Order follows the array.
    expect(text.indexOf("ROW1=alpha")).toBeLessThan(text.indexOf("ROW2=beta"));
    expect(text.indexOf("ROW2=beta")).toBeLessThan(text.indexOf("ROW3=gamma"));

    const empty = await generate(t, { engine: "ejs", html_template: template, data: { items: [], tags: [] } });
    expect(empty.report.status).toBe("succeeded");
    const emptyText = flat(await pdfText(empty.pdf!));
    expect(emptyText).toContain("EMPTY");
    expect(emptyText).toContain("COUNT=0 SUM=0");
    expect(emptyText).not.toContain("ROW1");
  });

  test("a template error fails the report with template_error, and the download answers 409 report_failed", async () => {
    const { report } = await generate(t, { engine: "ejs", html_template: "<p><%= notDefined.x %></p>", data: {} });
    expect(report.status).toBe("failed");
    expect(report.error.code).toBe("template_error");
    expect(report.error.message).toContain("notDefined");
    expect(report.size_bytes).toBeNull();
    expect(report.page_count).toBeNull();
    const dl = await t.request("GET", `/api/v1/reports/${report.report_id}/download`);
    expect(dl.status).toBe(409);
    expect(((await dl.json()) as { error: string }).error).toBe("report_failed");
  });

  test("a template error reads the same from the report, the preview and `reportgen render`: the cause and its line first", async () => {
    const template = "<h1>Invoice</h1>\n<p>Total:</p>\n<p><%= customer.name %></p>\n";
    const { report } = await generate(t, { engine: "ejs", html_template: template, data: {} });
    const message: string = report.error.message;
    expect(message.split("\n")[0]).toBe("ReferenceError: customer is not defined (template line 3)");
    expect(message).toContain(" >> 3| <p><%= customer.name %></p>");

    const preview = await t.app.services.templates.preview("a", { engine: "ejs", htmlTemplate: template, data: {} }).catch((e) => e);
    expect(preview.code).toBe("template_render_failed");
    expect(preview.details).toEqual({ code: "template_error", message });

    const cli = await renderCli(template);
    expect(cli.code).toBe(2);
    expect(cli.stderr).toBe(`reportgen: render failed: template_error: ${message}\n`);
  });

  test("a syntax error names its line, without EJS's advice to the library's caller, the same both ways", async () => {
    const template = "<p>a</p>\n<p><%= total +* 2 %></p>\n";
    const { report } = await generate(t, { engine: "ejs", html_template: template, data: { total: 1 } });
    expect(report.error).toEqual({ code: "template_error", message: "SyntaxError: unexpected token in expression: '*' (template line 2)" });
    const cli = await renderCli(template);
    expect(cli.stderr).toBe(`reportgen: render failed: template_error: ${report.error.message}\n`);
    expect(cli.stderr).not.toContain("EJS-Lint");
    expect(cli.stderr).not.toContain("async: true");
  });

  testIf(sharedMissing(INVOICE))("the sample invoice through ejs with empty data prints as one A4 page", async () => {
    const html = readFileSync(sharedPath(INVOICE), "utf8");
    const { report, pdf } = await generate(t, { engine: "ejs", html_template: html, data: {} });
    expect(report.status).toBe("succeeded");
    const info = await pdfInfo(pdf!);
    expect(info.Pages).toBe("1");
    expect(info["Page size"]).toContain("(A4)");
    expect(report.page_count).toBe(1);
    const text = await pdfText(pdf!);
    expect(text).toContain("Invoice #");
    expect(text).toContain("Total");
  });
});
