// `serve` re-executes itself with mimalloc's purge delay at 5 s (src/lib/allocator.ts): same PID, the
// setting in its environment, the scavenger thread that purges after the delay; its EJS sandboxes get
// the setting too. An operator's own MIMALLOC_PURGE_DELAY is left alone.
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { commandLine, environOf, threadNames } from "../../src/lib/process-tree";
import { descendants, type ServerOptions, sourceCommand, startServer } from "../helpers/process";

const dir = mkdtempSync(join(tmpdir(), "reportgen-allocator-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const environ = environOf;
const sandboxesOf = (pid: number) => descendants(pid).filter((p) => commandLine(p).includes("sandbox-child"));

async function withServer(name: string, opts: ServerOptions, check: (pid: number) => void) {
  const server = await startServer(sourceCommand, join(dir, name), opts);
  try {
    check(server.proc.pid);
  } finally {
    server.proc.kill("SIGTERM");
    await server.proc.exited;
  }
}

test("serve runs, under the PID it was started with, with a 5 s purge delay and mimalloc's scavenger thread", async () => {
  await withServer("default", { env: { MIMALLOC_PURGE_DELAY: undefined } }, (pid) => {
    expect(environ(pid).MIMALLOC_PURGE_DELAY).toBe("5000");
    expect(threadNames(pid)).toContain("mi-scavenger");
    const sandboxes = sandboxesOf(pid);
    expect(sandboxes.length).toBeGreaterThan(0);
    for (const s of sandboxes) expect(environ(s).MIMALLOC_PURGE_DELAY).toBe("5000");
  });
}, 60_000);

test("an operator's own MIMALLOC_PURGE_DELAY is kept, for the sandboxes too", async () => {
  await withServer("operator", { env: { MIMALLOC_PURGE_DELAY: "250" } }, (pid) => {
    expect(environ(pid).MIMALLOC_PURGE_DELAY).toBe("250");
    expect(threadNames(pid)).toContain("mi-scavenger");
    for (const s of sandboxesOf(pid)) expect(environ(s).MIMALLOC_PURGE_DELAY).toBe("250");
  });
}, 60_000);
