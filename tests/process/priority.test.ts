// Rendering runs at a lower CPU priority than the API: the EJS sandboxes are niced here, and Chromium
// too when unprivileged (tests/security/unprivileged.test.ts): as root it resets its own priorities.
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { commandLine, readStat } from "../../src/lib/process-tree";
import { descendants, sourceCommand, startServer } from "../helpers/process";

const dir = mkdtempSync(join(tmpdir(), "reportgen-nice-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const niceOf = (pid: number) => readStat(pid)?.nice;
const cmdOf = commandLine;

test("the EJS sandboxes run at --render-nice; the server's main thread does not", async () => {
  const server = await startServer(sourceCommand, dir, { extraArgs: ["--render-nice", "7"] });
  try {
    expect(niceOf(server.proc.pid)).toBe(0);
    const kids = descendants(server.proc.pid);
    const sandboxes = kids.filter((pid) => cmdOf(pid).includes("sandbox-child"));
    expect(sandboxes.length).toBeGreaterThan(0);
    for (const pid of sandboxes) expect(niceOf(pid)).toBe(7);
  } finally {
    server.proc.kill("SIGTERM");
    await server.proc.exited;
  }
}, 60_000);
