// runTool (lib/supervisor.ts): a short-lived tool such as qpdf runs in its own process group, gets its
// standard input, and is killed with everything it started at its deadline.
import { expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runTool } from "../../src/lib/run-tool";

const pids = (mark: string) => Bun.spawnSync(["pgrep", "-f", mark]).stdout.toString().trim();

test("a clean run: exit code, standard input delivered, stderr kept", async () => {
  const dir = mkdtempSync(join(tmpdir(), "rg-runtool-"));
  try {
    const out = join(dir, "in.txt");
    const r = await runTool(["sh", "-c", `cat > ${out}; echo warned >&2`], { timeoutMs: 10_000, stdin: '{"a":1}' });
    expect(r).toMatchObject({ code: 0, timedOut: false, signal: null });
    expect(r.stderr.trim()).toBe("warned");
    expect(readFileSync(out, "utf8")).toBe('{"a":1}');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("past its deadline the whole process group is killed, children included", async () => {
  const mark = `${4000 + Math.floor(Math.random() * 900)}.${Math.floor(Math.random() * 90) + 10}`;
  const started = performance.now();
  const r = await runTool(["sh", "-c", `sleep ${mark} & sleep ${mark}`], { timeoutMs: 300 });
  expect(r.timedOut).toBe(true);
  expect(r.code).toBeNull();
  expect(performance.now() - started).toBeLessThan(5_000);
  await Bun.sleep(100);
  expect(pids(`sleep ${mark}`)).toBe("");
});

test("a tool that cannot be started rejects (the caller turns it into a service fault)", async () => {
  await expect(runTool(["/nonexistent/qpdf"], { timeoutMs: 1_000 })).rejects.toThrow();
});
