// Limits a hostile or careless template runs into: page count, template CPU time, template memory
// and output size. Each ends the report failed with its own code, and the service keeps working.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { EjsSandbox } from "../../src/render/ejs-sandbox";
import { generate, pdfInfo, pdfText, type TestApp, useRenderApp, waitForReport } from "../helpers/app";

// Real Chromium and sandboxes on a 2-core machine: a busy machine must slow tests, not fail them.
setDefaultTimeout(60_000);

const TEMPLATE_TIMEOUT = 1000;
let t: TestApp;
useRenderApp((a) => (t = a), { maxPages: 2, templateTimeout: TEMPLATE_TIMEOUT, templateOutputMax: 1024 * 1024 });

const flat = (s: string) => s.replace(/[ \t]+/g, " ");
const pagesHtml = (n: number) => Array.from({ length: n }, (_, i) => `<div style="page-break-after:always">page ${i + 1}</div>`).join("");

async function submit(body: unknown): Promise<string> {
  const res = await t.request("POST", "/api/v1/generate-pdf-async", { body });
  expect(res.status).toBe(202);
  return ((await res.json()) as { report_id: string }).report_id;
}

/** Every sandbox process renders a normal template correctly (run concurrently so all are used). */
async function expectServiceWorks(tag: string) {
  const n = t.app.config.sandboxes * 2;
  const ids = await Promise.all(
    Array.from({ length: n }, (_, i) => submit({ engine: "ejs", html_template: "<p>ok <%= tag %>-<%= i %></p>", data: { tag, i } })),
  );
  for (const [i, id] of ids.entries()) {
    const r = await waitForReport(t, id, 15_000);
    expect(r.status).toBe("succeeded");
    expect(r.attempts).toBe(1);
    const dl = (await (await t.request("GET", `/api/v1/reports/${id}/download`)).json()) as { data: string };
    const text = flat(await pdfText(new Uint8Array(await (await t.app.http!.handle(new Request(dl.data))).arrayBuffer())));
    expect(text).toContain(`ok ${tag}-${i}`);
  }
}

describe("page limit", () => {
  test("a document at the limit prints", async () => {
    const { report, pdf } = await generate(t, { engine: "raw", html_template: pagesHtml(2) });
    expect(report.status).toBe("succeeded");
    expect(report.page_count).toBe(2);
    expect((await pdfInfo(pdf!)).Pages).toBe("2");
  });

  test("a document over the limit fails with too_many_pages and stores nothing", async () => {
    const { report } = await generate(t, { engine: "raw", html_template: pagesHtml(5) });
    expect(report.status).toBe("failed");
    expect(report.error.code).toBe("too_many_pages");
    expect(report.error.message).toContain("2");
    expect(report.page_count).toBeNull();
    expect(await Bun.file(t.app.services.spool.pathOf(report.report_id)).exists()).toBe(false);
    const dl = await t.request("GET", `/api/v1/reports/${report.report_id}/download`);
    expect(dl.status).toBe(409);
    expect(((await dl.json()) as { error: string }).error).toBe("report_failed");
  });
  test('a one-page document is not refused because its title contains "/Type /Page"', async () => {
    const { report } = await generate(t, {
      engine: "raw",
      html_template: "<title>/Type /Page /Type /Page /Type /Page</title><p>just one page</p>",
    });
    expect(report.error).toBeNull();
    expect(report.status).toBe("succeeded");
    expect(report.page_count).toBe(1);
  });
});

describe("template CPU deadline", () => {
  test("an endless EJS loop fails with template_timeout in time, while a report sent with it succeeds", async () => {
    const t0 = Date.now();
    const [loop, normal] = await Promise.all([
      submit({ engine: "ejs", html_template: "<% while(true){} %>", data: {} }),
      submit({ engine: "ejs", html_template: "<p>alongside <%= v %></p>", data: { v: "fine" } }),
    ]);
    const n = await waitForReport(t, normal);
    expect(n.status).toBe("succeeded");
    const r = await waitForReport(t, loop, 10_000);
    const took = Date.now() - t0;
    expect(r.status).toBe("failed");
    expect(r.error.code).toBe("template_timeout");
    expect(r.error.message.length).toBeGreaterThan(0);
    expect(r.attempts).toBe(1);
    expect(took).toBeGreaterThanOrEqual(TEMPLATE_TIMEOUT - 50);
    expect(took).toBeLessThan(2500);
    const dl = (await (await t.request("GET", `/api/v1/reports/${normal}/download`)).json()) as { data: string };
    expect(flat(await pdfText(new Uint8Array(await (await t.app.http!.handle(new Request(dl.data))).arrayBuffer())))).toContain(
      "alongside fine",
    );
  });

  test("a loop of long native calls (which starve QuickJS's interrupt) is still stopped in time", async () => {
    const t0 = Date.now();
    const id = await submit({ engine: "ejs", html_template: "<% var n = 0; for(;;){ n += 'x'.repeat(3e7).length } %>", data: {} });
    const r = await waitForReport(t, id, 15_000);
    expect(r.status).toBe("failed");
    expect(["template_timeout", "template_memory_exceeded", "template_error"]).toContain(r.error.code);
    expect(Date.now() - t0).toBeLessThan(TEMPLATE_TIMEOUT + 2000);
    await expectServiceWorks("after-native-loop");
  });
  test("a report waiting for a sandbox is not failed when a runaway template's sandbox is killed", async () => {
    // Fill every sandbox with a template only SIGKILL stops, then queue an innocent one behind them.
    const loops = [];
    for (let i = 0; i < t.app.config.sandboxes; i++)
      loops.push(await submit({ engine: "ejs", html_template: "<% var n = 0; for(;;){ n += 'x'.repeat(3e7).length } %>", data: {} }));
    await Bun.sleep(100);
    const innocent = await submit({ engine: "ejs", html_template: "<p>innocent <%= v %></p>", data: { v: "bystander" } });
    for (const id of loops) expect((await waitForReport(t, id, 15_000)).status).toBe("failed");
    const r = await waitForReport(t, innocent, 15_000);
    expect(r.error).toBeNull();
    expect(r.status).toBe("succeeded");
  });
});

describe("template memory and output", () => {
  test("a string doubled forever fails (memory or size) and the service keeps working", async () => {
    const t0 = Date.now();
    const { report } = await generate(t, { engine: "ejs", html_template: "<% var s='x'; while(true) s = s + s %>", data: {} });
    expect(report.status).toBe("failed");
    expect(report.error.code).toMatch(/^template_/);
    expect(report.error.message.length).toBeGreaterThan(0);
    expect(Date.now() - t0).toBeLessThan(TEMPLATE_TIMEOUT + 3000);
    await expectServiceWorks("after-string");
  });

  test("an array grown forever fails (memory) and the service keeps working", async () => {
    const t0 = Date.now();
    const { report } = await generate(t, {
      engine: "ejs",
      html_template: "<% var a=[]; while(true) a.push(new Array(100000).fill(7)) %>",
      data: {},
    });
    expect(report.status).toBe("failed");
    expect(report.error.code).toMatch(/^template_/);
    expect(report.error.message.length).toBeGreaterThan(0);
    expect(Date.now() - t0).toBeLessThan(TEMPLATE_TIMEOUT + 3000);
    await expectServiceWorks("after-array");
  });

  test("output over template-output-max fails with template_output_too_large", async () => {
    const { report } = await generate(t, { engine: "ejs", html_template: "<%- 'x'.repeat(2 * 1024 * 1024) %>", data: {} });
    expect(report.status).toBe("failed");
    expect(report.error.code).toBe("template_output_too_large");
    const ok = await generate(t, { engine: "ejs", html_template: "<p><%= 'y'.repeat(1000).length %></p>", data: {} });
    expect(ok.report.status).toBe("succeeded");
    expect(await pdfText(ok.pdf!)).toContain("1000");
  });

  const recursion = "<% function f(n){ return f(n+1) + 1 } f(0) %>";

  test("deep recursion fails with a readable template_error (QuickJS's stack overflow, not an engine abort)", async () => {
    // Several times: the depth the host's stack allows varies from run to run.
    for (let i = 0; i < 3; i++) {
      const { report } = await generate(t, { engine: "ejs", html_template: recursion, data: {} });
      expect(report.status).toBe("failed");
      expect(report.error.code).toBe("template_error");
      expect(report.error.message).toMatch(/stack overflow|recursed too deeply/i);
      expect(report.error.message).not.toMatch(/Aborted|Assertion failed|quickjs\.c/);
    }
    await expectServiceWorks("after-recursion");
  });

  test("deep recursion in a fresh sandbox module returns stack overflow instead of aborting the engine", async () => {
    // The same EjsSandbox the child process runs, created fresh (un-warmed WebAssembly, where the
    // host's native stack runs out before QuickJS's 1 MB stack limit is reached).
    const memory = 128 * 1024 * 1024;
    const sandbox = await EjsSandbox.create(memory);
    sandbox.prepare?.(); // as the sandbox child does before it reports ready
    let result: unknown;
    let thrown: unknown;
    try {
      result = sandbox.render(recursion, "{}", 5000, 1024 * 1024);
    } catch (e) {
      thrown = String(e);
    }
    expect(thrown).toBeUndefined();
    expect(result).toMatchObject({ ok: false, code: "template_error" });
    expect((result as { message: string }).message).toMatch(/stack overflow|recursed too deeply/i);
    // And the module still renders afterwards.
    if (!thrown) expect(sandbox.render("<p><%= 6 * 7 %></p>", "{}", 5000, 1024 * 1024)).toEqual({ ok: true, html: "<p>42</p>" });
  });

  test("reports queued right behind recursing templates all succeed", async () => {
    for (let round = 0; round < 3; round++) {
      const ids = [];
      for (let i = 0; i < t.app.config.sandboxes; i++) ids.push(await submit({ engine: "ejs", html_template: recursion, data: {} }));
      const normals = [];
      for (let i = 0; i < 4; i++) normals.push(await submit({ engine: "ejs", html_template: "<p>behind <%= i %></p>", data: { i } }));
      for (const id of ids) expect((await waitForReport(t, id, 15_000)).status).toBe("failed");
      for (const id of normals) {
        const r = await waitForReport(t, id, 15_000);
        expect(r.error).toBeNull();
        expect(r.status).toBe("succeeded");
      }
    }
  });
});
