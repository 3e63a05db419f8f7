// `reportgen backup --to DIR` while the service runs and takes submissions; restoring is copying
// the folder into place as a data dir: the service starts on it and serves the same PDFs.

import { Database } from "bun:sqlite";
import { afterAll, expect, test } from "bun:test";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { api, runCli, type ServerProcess, sourceCommand, startServer } from "../helpers/process";

const root = mkdtempSync(join(tmpdir(), "reportgen-backup-"));
const live = join(root, "live");
const backupDir = join(root, "backup-1");
const restored = join(root, "restored");
const servers: ServerProcess[] = [];
afterAll(async () => {
  for (const s of servers) {
    s.proc.kill("SIGKILL");
    await s.proc.exited;
  }
  rmSync(root, { recursive: true, force: true });
});

async function waitSucceeded(baseUrl: string, key: string, id: string) {
  const end = Date.now() + 60_000;
  for (;;) {
    const r = await api(baseUrl, key, "GET", `/reports/${id}?wait=10`);
    if (r.body.data.status === "succeeded") return r.body.data;
    if (!["queued", "processing"].includes(r.body.data.status) || Date.now() > end)
      throw new Error(`report ${id}: ${JSON.stringify(r.body)}`);
  }
}

const pdfOf = async (link: string) => new Uint8Array(await (await fetch(link)).arrayBuffer());

test("backup while the service runs and takes submissions; restore into a new data dir; the same PDFs download", async () => {
  const key = runCli(sourceCommand, ["admin", "create-key", "--name", "backup", "--data-dir", live]).stdout.trim();
  const first = await startServer(sourceCommand, live);
  servers.push(first);
  const ids: string[] = [];
  for (let i = 0; i < 4; i++)
    ids.push(
      (
        await api(first.baseUrl, key, "POST", "/generate-pdf-async", {
          engine: "ejs",
          html_template: "<h1>Backup <%= n %></h1>",
          data: { n: i },
        })
      ).body.report_id,
    );
  for (const id of ids) await waitSucceeded(first.baseUrl, key, id);
  const links = await Promise.all(
    ids.map(async (id) => (await api(first.baseUrl, key, "GET", `/reports/${id}/download`)).body.data as string),
  );
  const originals = await Promise.all(links.map(pdfOf));
  // An asset: its bytes are in the data dir, and travel with the backup.
  const svg = '<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"><rect width="8" height="8"/></svg>';
  const asset = await api(first.baseUrl, key, "POST", "/assets", { name: "mark.svg", content_base64: Buffer.from(svg).toString("base64") });
  expect(asset.status).toBe(201);

  // Keep writing while the backup runs: it must still be consistent.
  let writing = true;
  const during: string[] = [];
  const writer = (async () => {
    while (writing) {
      const r = await api(first.baseUrl, key, "POST", "/generate-pdf-async", { engine: "raw", html_template: "<p>during the backup</p>" });
      if (r.status === 202) during.push(r.body.report_id);
      await Bun.sleep(5);
    }
  })();
  await Bun.sleep(200);
  const t0 = performance.now();
  const b = Bun.spawnSync([...sourceCommand, "backup", "--to", backupDir, "--data-dir", live], {
    env: { ...process.env, REPORTGEN_LOG_LEVEL: "warn" },
  });
  const backupMs = performance.now() - t0;
  writing = false;
  await writer;
  expect(b.exitCode, b.stderr.toString()).toBe(0);
  console.error(
    `backup: ${b.stderr.toString().trim().split("\n")[0]} (command ${backupMs.toFixed(0)} ms, ${during.length} submissions meanwhile)`,
  );
  expect(during.length).toBeGreaterThan(0);

  const manifest = JSON.parse(readFileSync(join(backupDir, "backup.json"), "utf8"));
  expect(manifest.pdfs).toBeGreaterThanOrEqual(4);
  expect(manifest.schema_version).toBeGreaterThan(0);
  expect(readdirSync(backupDir).sort()).toEqual(["assets", "backup.json", "link-secret", "reportgen.db", "reports"]);
  expect(manifest.assets).toBe(1);
  const db = new Database(join(backupDir, "reportgen.db"), { readonly: true });
  expect(db.query<{ integrity_check: string }, []>("PRAGMA integrity_check").get()!.integrity_check).toBe("ok");
  // Consistent: exactly the PDFs of the reports the snapshot calls succeeded.
  const succeeded = db
    .query<{ id: string }, []>("SELECT id FROM reports WHERE status = 'succeeded'")
    .all()
    .map((r) => `${r.id}.pdf`);
  db.close();
  expect(readdirSync(join(backupDir, "reports")).sort()).toEqual(succeeded.sort());

  // Refuses to overwrite anything.
  const again = runCli(sourceCommand, ["backup", "--to", backupDir, "--data-dir", live]);
  expect(again.code).toBe(1);
  expect(again.stderr).toContain("is not empty");
  expect(runCli(sourceCommand, ["backup", "--data-dir", live]).code).toBe(2);

  // Restore: the one documented step (copy the folder into place as the data dir), then start.
  expect(Bun.spawnSync(["cp", "-a", backupDir, restored]).exitCode).toBe(0);
  const second = await startServer(sourceCommand, restored);
  servers.push(second);
  for (let i = 0; i < ids.length; i++) {
    const dl = await api(second.baseUrl, key, "GET", `/reports/${ids[i]}/download`);
    expect(dl.status).toBe(200);
    const pdf = await pdfOf(dl.body.data.replace(first.baseUrl, second.baseUrl));
    expect(pdf).toEqual(originals[i]!);
    // A link signed before the backup still works against the restored service.
    expect((await fetch(links[i]!.replace(first.baseUrl, second.baseUrl))).status).toBe(200);
  }
  const content = await fetch(`${second.baseUrl}/api/v1/assets/${asset.body.data.id}/content`, { headers: { "x-api-key": key } });
  expect(await content.text()).toBe(svg);
  // Reports queued at the moment of the snapshot are rendered by the restored service.
  const restoredDb = new Database(join(restored, "reportgen.db"), { readonly: true });
  const unfinished = restoredDb.query<{ id: string }, []>("SELECT id FROM reports WHERE status IN ('queued', 'processing')").all();
  restoredDb.close();
  for (const r of unfinished) await waitSucceeded(second.baseUrl, key, r.id);
  // And it takes new work.
  const fresh = (await api(second.baseUrl, key, "POST", "/generate-pdf-async", { engine: "raw", html_template: "<p>after restore</p>" }))
    .body.report_id;
  await waitSucceeded(second.baseUrl, key, fresh);
}, 180_000);

test("backup refuses a folder that is not a data dir", () => {
  const r = runCli(sourceCommand, ["backup", "--to", join(root, "b2"), "--data-dir", join(root, "nothing-here")]);
  expect(r.code).toBe(1);
  expect(r.stderr).toContain("no database");
  expect(existsSync(join(root, "b2", "backup.json"))).toBe(false);
});
