// App start/stop: state survives a restart on the same data dir, and App instances are independent.
import { expect, test } from "bun:test";
import { existsSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { App } from "../../src/app/app";
import { bootstrap } from "../../src/app/bootstrap";
import { loadConfig } from "../../src/config/load";
import type { Config } from "../../src/config/settings";
import { createLogger } from "../../src/lib/logger";
import { createTestApp } from "../helpers/app";
import { FAKE_PDF } from "../helpers/scenario";

function configFor(dir: string): Config {
  return { ...loadConfig({}, {}), dataDir: dir, host: "127.0.0.1", port: 0 };
}

test("keys, reports, files and links survive a restart on the same data dir", async () => {
  const dir = mkdtempSync(join(tmpdir(), "reportgen-restart-"));
  try {
    const first = await bootstrap(configFor(dir), { logger: createLogger("error") });
    await first.start();
    const key = (await first.services.keys.createForAccount("acme", "k")).value;
    const handle = (app: App, path: string, method = "GET", body?: unknown) =>
      app.http.handle(
        new Request(`http://localhost${path}`, {
          method,
          headers: { "x-api-key": key, ...(body ? { "content-type": "application/json" } : {}) },
          body: body ? JSON.stringify(body) : undefined,
        }),
      );
    const res = await handle(first, "/api/v1/generate-pdf-async", "POST", { html_template: "x", engine: "raw" });
    const { report_id } = (await res.json()) as { report_id: string };
    const queued = (await (await handle(first, "/api/v1/generate-pdf-async", "POST", { html_template: "y", engine: "raw" })).json()) as {
      report_id: string;
    };
    // Finish the first one with the first app's services.
    const [claimed] = await first.services.repos.queue.claim(Date.now(), 60_000);
    await Bun.write(first.services.spool.pathOf(report_id), FAKE_PDF);
    await first.services.repos.queue.succeed({
      id: report_id,
      attempt: claimed!.attempts,
      sizeBytes: FAKE_PDF.length,
      pageCount: 1,
      finishedAt: Date.now(),
      expiresAt: Date.now() + 60_000,
    });
    const link = ((await (await handle(first, `/api/v1/reports/${report_id}/download`)).json()) as { data: string }).data;
    await first.stop();

    const second = await bootstrap(configFor(dir), { logger: createLogger("error") });
    await second.start();
    try {
      expect((await handle(second, "/api/v1/reports")).status).toBe(200);
      const r = ((await (await handle(second, `/api/v1/reports/${report_id}`)).json()) as { data: { status: string } }).data;
      expect(r.status).toBe("succeeded");
      const q = ((await (await handle(second, `/api/v1/reports/${queued.report_id}`)).json()) as { data: { status: string } }).data;
      expect(q.status).toBe("queued");
      // The link-signing secret is persisted, so a link issued before the restart still works.
      const pdf = await second.http.handle(new Request(link));
      expect(pdf.status).toBe(200);
      expect(await pdf.text()).toBe(FAKE_PDF);
    } finally {
      await second.stop();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("the data dir's secrets are private to the service user", async () => {
  const t = await createTestApp();
  try {
    expect(statSync(join(t.dir, "link-secret")).mode & 0o077).toBe(0);
    expect(statSync(join(t.dir, "reportgen.db")).mode & 0o077).toBe(0);
  } finally {
    await t.close();
  }
});

test("stop() is idempotent: a second call waits for the same shutdown, and the database stays closed", async () => {
  const t = await createTestApp();
  const first = t.app.stop();
  expect(t.app.stop()).toBe(first);
  await first;
  await t.app.stop();
  expect(() => t.app.services.backend.db!.$client.query("select 1").get()).toThrow();
  await t.close();
});

test("bootstrap() opens the database; the App's constructor does no I/O, start() does", async () => {
  const dir = mkdtempSync(join(tmpdir(), "reportgen-boot-"));
  try {
    const config = { ...configFor(dir), chromiumPath: join(dir, "no-chromium") };
    const app = await bootstrap(config, { logger: createLogger("error"), mode: { listen: true, render: true } });
    expect(statSync(join(dir, "reportgen.db")).isFile()).toBe(true);
    expect(app.services.migration.version).toBeGreaterThan(0);
    // Wired but not started: no port, no fontconfig written, no renderer up.
    expect(app.port).toBeUndefined();
    expect(existsSync(join(dir, "fontconfig"))).toBe(false);
    expect(app.rendererReady()).toBe(false);
    // start() listens first (reports are accepted while Chromium starts), then refuses a missing Chromium.
    await expect(app.start()).rejects.toThrow(/Chromium was not found/);
    expect(app.port).toBeGreaterThan(0);
    await app.stop();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("two Apps can run side by side in one process (e.g. two data dirs, or tests)", async () => {
  const dirs = [mkdtempSync(join(tmpdir(), "reportgen-side-a-")), mkdtempSync(join(tmpdir(), "reportgen-side-b-"))];
  const apps = await Promise.all(dirs.map((d) => bootstrap(configFor(d), { logger: createLogger("error") })));
  try {
    await apps[0]!.start();
    // Cron jobs are unnamed (src/jobs/scheduler.ts): croner's job names are process-global, so a named
    // "cleanup" job made the second start() throw "Tried to initialize new named job 'cleanup'".
    await apps[1]!.start();
    const key = (await apps[1]!.services.keys.createForAccount("acme", "k")).value;
    const res = await apps[1]!.http.handle(new Request("http://localhost/api/v1/reports", { headers: { "x-api-key": key } }));
    expect(res.status).toBe(200);
  } finally {
    for (const a of apps) await a.stop();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  }
});
