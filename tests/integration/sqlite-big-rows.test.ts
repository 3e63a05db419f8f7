// A report's input stays in its row until it finishes, ahead of the columns a status read touches:
// SQLite walks the row's overflow pages to reach them. The connection's page cache (src/db/client.ts)
// must hold a big input, or every status read of a chunked report reads its whole data from the file
// again (a 14 MB input: 5 ms per read). Measured here as bytes read from files (/proc/self/io rchar),
// not as time: a busy machine cannot fail it.
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openRepos } from "../../src/app/repos";

const dir = mkdtempSync(join(tmpdir(), "rg-big-rows-"));
const opened = await openRepos({ dataDir: dir, databaseUrl: "" });
afterAll(async () => {
  await opened.close();
  rmSync(dir, { recursive: true, force: true });
});

const bytesRead = () => Number(/^rchar: (\d+)/m.exec(readFileSync("/proc/self/io", "latin1"))![1]);

test("status reads of a report with 14 MB of data read its pages from the cache, not the file", async () => {
  const { reports, accounts } = opened.repos;
  const account = await accounts.ensure("big-rows");
  const id = crypto.randomUUID();
  const data = JSON.stringify({ rows: "x".repeat(14 * 1024 * 1024) });
  await reports.insert({
    id,
    accountId: account.id,
    engine: "ejs",
    template: "<%= rows.length %>",
    data,
    options: null,
    createdAt: Date.now(),
  });
  expect((await reports.get(id, account.id))?.status).toBe("queued"); // the first read fills the cache
  const before = bytesRead();
  for (let i = 0; i < 10; i++) expect((await reports.get(id, account.id))?.status).toBe("queued");
  const read = bytesRead() - before;
  // Uncached, each read takes the whole input from the file again: 10 x 14 MB. Cached: next to nothing.
  expect(read).toBeLessThan(14 * 1024 * 1024);
});
