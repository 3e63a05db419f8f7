// A report's life around the renderer: runaway page JavaScript, dialogs and popups, deletion while
// rendering, and retention (expiry and orphaned files).
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fetchLink, generate, pdfText, type TestApp, useRenderApp, waitForReport } from "../helpers/app";

// Real Chromium and sandboxes on a 2-core machine: a busy machine must slow tests, not fail them.
setDefaultTimeout(60_000);

const RENDER_TIMEOUT = 3000;
let t: TestApp;
useRenderApp((a) => (t = a), { renderTimeout: RENDER_TIMEOUT, retention: 60_000 });

const flat = (s: string) => s.replace(/[ \t]+/g, " ");

async function submit(body: unknown): Promise<string> {
  const res = await t.request("POST", "/api/v1/generate-pdf-async", { body });
  expect(res.status).toBe(202);
  return ((await res.json()) as { report_id: string }).report_id;
}

async function statusOf(id: string): Promise<{ code: number; status?: string }> {
  const res = await t.request("GET", `/api/v1/reports/${id}`);
  if (res.status !== 200) return { code: res.status };
  return { code: 200, status: ((await res.json()) as { data: { status: string } }).data.status };
}

async function waitForStatus(id: string, status: string, timeoutMs = 10_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const s = await statusOf(id);
    if (s.status === status) return;
    if (Date.now() > end) throw new Error(`report ${id} is ${s.status ?? s.code}, not ${status}, after ${timeoutMs} ms`);
    await Bun.sleep(10);
  }
}

describe("runaway page JavaScript", () => {
  test("an endless loop fails with render_timeout near the deadline, and the next reports still succeed quickly", async () => {
    const started = Date.now();
    const id = await submit({ engine: "raw", html_template: "<p>never</p><script>while(true){}</script>" });
    const report = await waitForReport(t, id, RENDER_TIMEOUT + 10_000);
    const took = Date.now() - started;
    expect(report.status).toBe("failed");
    expect(report.error.code).toBe("render_timeout");
    expect(report.error.message.length).toBeGreaterThan(0);
    // Not retried: a template's own fault.
    expect(report.attempts).toBe(1);
    expect(took).toBeGreaterThanOrEqual(RENDER_TIMEOUT - 100);
    expect(took).toBeLessThan(RENDER_TIMEOUT + 2000);
    const dl = await t.request("GET", `/api/v1/reports/${id}/download`);
    expect(dl.status).toBe(409);

    // More reports than pages, so the page that ran the loop (or its replacement) is used again.
    const pages = t.app.config.renderPages * t.app.config.renderWorkers;
    for (let i = 0; i < pages + 1; i++) {
      const t0 = Date.now();
      const { report: next, pdf } = await generate(t, { engine: "raw", html_template: `<p>next report ${i}</p>` });
      expect(next.status).toBe("succeeded");
      expect(flat(await pdfText(pdf!))).toContain(`next report ${i}`);
      expect(Date.now() - t0).toBeLessThan(2000);
    }
  });

  test("a loop on one page does not hold up a report on another page", async () => {
    const loop = await submit({ engine: "raw", html_template: "<script>while(true){}</script>" });
    await waitForStatus(loop, "processing");
    const t0 = Date.now();
    const { report, pdf } = await generate(t, { engine: "raw", html_template: "<p>meanwhile</p>" });
    expect(report.status).toBe("succeeded");
    expect(Date.now() - t0).toBeLessThan(RENDER_TIMEOUT - 500);
    expect(flat(await pdfText(pdf!))).toContain("meanwhile");
    expect((await waitForReport(t, loop)).error.code).toBe("render_timeout");
  });

  test("alert, confirm and prompt do not block printing", async () => {
    const t0 = Date.now();
    const { report, pdf } = await generate(t, {
      engine: "raw",
      html_template: "<script>alert('x');confirm('y');prompt('z')</script><p>after dialogs</p>",
    });
    expect(report.status).toBe("succeeded");
    expect(Date.now() - t0).toBeLessThan(RENDER_TIMEOUT);
    expect(flat(await pdfText(pdf!))).toContain("after dialogs");
  });

  test("a report cannot open windows: window.open returns null, and the report prints on its first attempt", async () => {
    // Chromium's popup blocker (Playwright turns it off by default): with it off, window.open returned
    // a window each time, and reports opening popups stalled every page of the Chromium for seconds.
    const html =
      "<a id=a target=_blank href='about:blank#a'>a</a><form id=f target=_blank action='about:blank'></form><p id=o>pending</p><script>" +
      "var r = []; for (var i = 0; i < 5; i++) { r.push(String(window.open('about:blank#' + i))); r.push(String(window.open('', 'named' + i))) }" +
      "document.getElementById('a').click(); document.getElementById('f').submit();" +
      "document.getElementById('o').textContent = 'OPENED ' + r.join(',')</script>";
    const { report, pdf } = await generate(t, { engine: "raw", html_template: html });
    expect({ status: report.status, attempts: report.attempts }).toEqual({ status: "succeeded", attempts: 1 });
    expect(flat(await pdfText(pdf!))).toContain(`OPENED ${Array(10).fill("null").join(",")}`);
  });
  test("window.close() in the page cannot end the print: the report prints, on its first attempt", async () => {
    // The template must not be able to close the service's reused page; today it does, and the
    // report is retried maxAttempts times (each replacing a page) before failing render_failed.
    const { report, pdf } = await generate(t, { engine: "raw", html_template: "<script>window.close()</script><p>closed?</p>" });
    expect(report.error).toBeNull();
    expect(report.status).toBe("succeeded");
    expect(report.attempts).toBe(1);
    expect(flat(await pdfText(pdf!))).toContain("closed?");
  });

  test("render error messages carry no terminal escape codes or driver call logs", async () => {
    // Whatever fails inside Chromium, the client gets a clean message.
    const ids = [
      await submit({ engine: "raw", html_template: "<script>window.close()</script><p>x</p>" }),
      await submit({ engine: "raw", html_template: "<script>setTimeout(function(){ window.close() }, 0)</script><p>x</p>" }),
    ];
    for (const id of ids) {
      const r = await waitForReport(t, id);
      if (r.status === "failed") {
        expect(r.error.message).not.toMatch(/\u001b\[/);
        expect(r.error.message).not.toContain("Call log");
      } else {
        expect(r.status).toBe("succeeded");
      }
    }
  });
});

describe("deleting a report", () => {
  const filesOf = (id: string) => ({
    stored: existsSync(t.app.services.spool.pathOf(id)),
    reports: readdirSync(join(t.dir, "reports")).filter((f) => f.includes(id)),
  });

  test("while Chromium prints it: 200, then 404, and no file is left", async () => {
    const id = await submit({ engine: "raw", html_template: "<p>slow</p><script>var e=Date.now()+1500;while(Date.now()<e){}</script>" });
    await waitForStatus(id, "processing");
    const del = await t.request("DELETE", `/api/v1/reports/${id}`);
    expect(del.status).toBe(200);
    expect(await del.json()).toEqual({ data: { report_id: id, deleted: true } });
    await Bun.sleep(3000);
    expect((await statusOf(id)).code).toBe(404);
    expect((await t.request("GET", `/api/v1/reports/${id}/download`)).status).toBe(404);
    expect(filesOf(id)).toEqual({ stored: false, reports: [] });
    // A second delete is a 404.
    expect((await t.request("DELETE", `/api/v1/reports/${id}`)).status).toBe(404);
  });

  test("while the EJS sandbox runs it: no PDF ever appears", async () => {
    const id = await submit({ engine: "ejs", html_template: "<% var e=Date.now()+1000;while(Date.now()<e){} %><p>slow ejs</p>", data: {} });
    await waitForStatus(id, "processing");
    expect((await t.request("DELETE", `/api/v1/reports/${id}`)).status).toBe(200);
    await Bun.sleep(2000);
    expect((await statusOf(id)).code).toBe(404);
    expect(filesOf(id)).toEqual({ stored: false, reports: [] });
  });

  test("a report that fails in Chromium or in the sandbox leaves no file (its file exists only while it renders)", async () => {
    const printing = await submit({
      engine: "raw",
      html_template: "<p>slow</p><script>var e=Date.now()+1500;while(Date.now()<e){}</script>",
    });
    await waitForStatus(printing, "processing");
    expect(filesOf(printing).reports).toEqual([`${printing}.pdf`]);
    const failed = [
      await submit({ engine: "ejs", html_template: "<%= nope.x %>", data: {} }),
      await submit({ engine: "raw", html_template: "<p>x</p>", options: { page_ranges: "90-99" } }),
    ];
    for (const id of failed) {
      expect((await waitForReport(t, id)).status).toBe("failed");
      expect(filesOf(id)).toEqual({ stored: false, reports: [] });
    }
    expect((await waitForReport(t, printing)).status).toBe("succeeded");
  });

  test("after it succeeded: the file and its link are gone", async () => {
    const { report, link } = await generate(t, { engine: "raw", html_template: "<p>to delete</p>" });
    expect(report.status).toBe("succeeded");
    expect(existsSync(t.app.services.spool.pathOf(report.report_id))).toBe(true);
    expect((await fetchLink(t, link!)).status).toBe(200);
    expect((await t.request("DELETE", `/api/v1/reports/${report.report_id}`)).status).toBe(200);
    expect(existsSync(t.app.services.spool.pathOf(report.report_id))).toBe(false);
    expect((await fetchLink(t, link!)).status).toBe(403);
  });
});

describe("retention", () => {
  test("an expired report is marked expired, its file removed, download 410 and its old link 403", async () => {
    const { report, link } = await generate(t, { engine: "raw", html_template: "<p>retained</p>" });
    expect(report.status).toBe("succeeded");
    expect(Date.parse(report.expires_at) - Date.parse(report.finished_at)).toBe(60_000);
    const keep = await generate(t, { engine: "raw", html_template: "<p>kept</p>" });
    expect(keep.report.status).toBe("succeeded");
    const id = report.report_id;
    expect(existsSync(t.app.services.spool.pathOf(id))).toBe(true);

    // Not due yet: cleanup leaves it alone.
    await t.app.cleanup();
    expect((await statusOf(id)).status).toBe("succeeded");
    expect(existsSync(t.app.services.spool.pathOf(id))).toBe(true);

    t.app.services.backend.db!.$client.run("UPDATE reports SET expires_at = 1 WHERE id = ?", [id]);
    const result = await t.app.cleanup();
    expect(result.expired).toBe(1);
    expect((await statusOf(id)).status).toBe("expired");
    expect(existsSync(t.app.services.spool.pathOf(id))).toBe(false);
    const dl = await t.request("GET", `/api/v1/reports/${id}/download`);
    expect(dl.status).toBe(410);
    expect(((await dl.json()) as { error: string }).error).toBe("report_expired");
    const old = await fetchLink(t, link!);
    expect(old.status).toBe(403);
    expect(((await old.json()) as { error: string }).error).toBe("link_invalid");

    // The other report is untouched.
    expect((await statusOf(keep.report.report_id)).status).toBe("succeeded");
    expect(existsSync(t.app.services.spool.pathOf(keep.report.report_id))).toBe(true);
    expect((await fetchLink(t, keep.link!)).status).toBe(200);

    // Running it again changes nothing.
    expect(await t.app.cleanup()).toEqual({ expired: 0, orphansRemoved: 0 });
    expect((await statusOf(id)).status).toBe("expired");
  });

  test("a PDF in the reports folder with no report row is removed by cleanup", async () => {
    const live = await generate(t, { engine: "raw", html_template: "<p>live</p>" });
    expect(live.report.status).toBe("succeeded");
    const orphanId = crypto.randomUUID();
    const orphan = join(join(t.dir, "reports"), `${orphanId}.pdf`);
    writeFileSync(orphan, "%PDF-1.4 orphan");
    const result = await t.app.cleanup();
    expect(result.orphansRemoved).toBe(1);
    expect(existsSync(orphan)).toBe(false);
    expect(existsSync(t.app.services.spool.pathOf(live.report.report_id))).toBe(true);
    expect((await fetchLink(t, live.link!)).status).toBe(200);
  });
});
