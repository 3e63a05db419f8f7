// The resident size read from /proc/PID/stat (the bench's PSS sampler reads PSS only when it grows) is the
// kernel's own figure, the one /proc/PID/status prints as VmRSS.
import { expect, test } from "bun:test";
import { readStat, statusField } from "../../src/lib/process-tree";

test("rssPages is this process's resident size, in pages", () => {
  const pageSize = Number(Bun.spawnSync(["getconf", "PAGESIZE"]).stdout.toString().trim());
  const stat = readStat(process.pid)!;
  const vmRssKiB = statusField(process.pid, "VmRSS")!;
  expect(pageSize).toBeGreaterThan(0);
  expect(vmRssKiB).toBeGreaterThan(1024);
  // Read a moment apart: within 10 %.
  expect(Math.abs((stat.rssPages * pageSize) / 1024 - vmRssKiB)).toBeLessThan(vmRssKiB * 0.1);
});
