// X-Request-Id end to end on a real server: the client's id comes back, and every log line of the
// request and of its report's rendering (processor, EJS sandbox, Chromium) carries it and the report_id.
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runCli, sourceCommand, startServer } from "../helpers/process";

const dir = mkdtempSync(join(tmpdir(), "reportgen-reqid-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test("log lines of a request and of its rendering carry request_id and report_id", async () => {
  const key = runCli(sourceCommand, ["admin", "create-key", "--name", "ids", "--data-dir", dir]).stdout.trim();
  const server = await startServer(sourceCommand, dir, { extraArgs: ["--log-level", "debug", "--template-timeout", "300ms"] });
  try {
    const submit = async (requestId: string, body: unknown) => {
      const res = await fetch(`${server.baseUrl}/api/v1/generate-pdf-async`, {
        method: "POST",
        headers: { "x-api-key": key, "content-type": "application/json", "x-request-id": requestId },
        body: JSON.stringify(body),
      });
      expect(res.status).toBe(202);
      expect(res.headers.get("x-request-id")).toBe(requestId);
      const { report_id } = (await res.json()) as { report_id: string };
      const done = await fetch(`${server.baseUrl}/api/v1/reports/${report_id}?wait=30`, { headers: { "x-api-key": key } });
      return { reportId: report_id, report: ((await done.json()) as { data: { status: string; error: { code: string } | null } }).data };
    };
    const ok = await submit("client-ok-1", { engine: "ejs", html_template: "<p><%= x %></p>", data: { x: 1 } });
    expect(ok.report.status).toBe("succeeded");
    // A template that runs past its deadline: the sandbox is stopped, the report fails.
    const slow = await submit("client-slow-2", { engine: "ejs", html_template: "<% while (true) {} %>", data: {} });
    expect(slow.report.status).toBe("failed");
    expect(slow.report.error!.code).toBe("template_timeout");
    await Bun.sleep(200);

    const lines = server
      .stderr()
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    for (const { reportId, id } of [
      { reportId: ok.reportId, id: "client-ok-1" },
      { reportId: slow.reportId, id: "client-slow-2" },
    ]) {
      const mine = lines.filter((l) => l.report_id === reportId || l.request_id === id);
      // The submission, the status poll is another request (its own id); the rendering's lines.
      expect(mine.some((l) => l.msg === "request" && l.route === "/api/v1/generate-pdf-async")).toBe(true);
      expect(mine.length).toBeGreaterThanOrEqual(2);
      for (const l of mine) {
        if (l.msg === "request" && l.route !== "/api/v1/generate-pdf-async") continue; // polls of this report
        expect(l.request_id, JSON.stringify(l)).toBe(id);
        expect(l.report_id, JSON.stringify(l)).toBe(reportId);
      }
    }
    const rendered = lines.find((l) => l.msg === "report rendered" && l.report_id === ok.reportId);
    expect(rendered?.request_id).toBe("client-ok-1");
    const failed = lines.find((l) => l.msg === "report failed" && l.report_id === slow.reportId);
    expect(failed?.request_id).toBe("client-slow-2");
  } finally {
    server.proc.kill("SIGTERM");
    await server.proc.exited;
  }
}, 90_000);
