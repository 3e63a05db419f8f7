// Every instance reaps, whatever its role: with only an api instance alive (no processor, nothing
// rendering), the reports of a worker that died go back to the queue within lease + reaper period, and
// read `queued` (not `processing`) while no worker is there to take them.
import { expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openRepos } from "../../src/app/repos";
import { REAP_EVERY_MS } from "../../src/modules/reports/queue";
import { createTestApp } from "../helpers/app";
import { usePostgres } from "../helpers/postgres";

const pg = usePostgres();

test("an api-only instance takes back a dead worker's reports once their lease runs out", async () => {
  const url = await pg().createDatabase();
  const dir = mkdtempSync(join(tmpdir(), "rg-reaper-"));
  // The api instance: renders nothing, so it has no processor; only the App's reaper can take them back.
  const api = await createTestApp({ dir, config: { databaseUrl: url } });
  const dead = await openRepos({ dataDir: dir, databaseUrl: url });
  try {
    const account = await dead.repos.accounts.ensure("acme");
    const ids = [crypto.randomUUID(), crypto.randomUUID()];
    const LEASE = 1_000;
    const claimed = await dead.repos.reports.transaction(async () => {
      for (const id of ids)
        await dead.repos.reports.insert({
          id,
          accountId: account.id,
          engine: "raw",
          template: "<p>orphan</p>",
          data: null,
          options: null,
          createdAt: Date.now(),
        });
      return dead.repos.queue.claim(Date.now(), LEASE, 2);
    });
    expect(claimed).toHaveLength(2);
    const t0 = Date.now();
    const statusOf = async (id: string) => (await api.app.services.repos.reports.getForDownload(id))?.status;
    for (const id of ids) {
      while ((await statusOf(id)) === "processing") {
        if (Date.now() - t0 > 4 * (LEASE + REAP_EVERY_MS)) throw new Error(`report ${id} still processing`);
        await Bun.sleep(100);
      }
      expect(await statusOf(id)).toBe("queued");
    }
    // The dead claims are fenced out.
    for (const c of claimed)
      expect(
        await dead.repos.queue.succeed({ id: c.id, attempt: c.attempts, sizeBytes: 1, pageCount: 1, finishedAt: 1, expiresAt: 2 }),
      ).toBe(false);
  } finally {
    await dead.close();
    await api.close();
    rmSync(dir, { recursive: true, force: true });
  }
}, 60_000);
