// A --database-url that does not lead to a usable PostgreSQL: every command ends with one readable line
// that names the server without its password, exits 1, and within a bound, whatever sits at the
// address. The servers here are real TCP listeners on loopback: one that answers like an HTTP server
// and closes (a URL pointing at the wrong port), one that resets, and one that accepts and stays
// silent. (An address behind a proxy that accepted and answered so kept postgres-js reconnecting for as
// long as a statement waited, and `admin list-keys` never ended; the bound that ends it is
// db/open.ts's first contact, whose logic tests/unit/first-contact.test.ts checks.) And `serve` on a port it cannot open says which and why.
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FIRST_CONTACT_MS } from "../../src/db/open";
import { freePort, runCli, sourceCommand } from "../helpers/process";

type Behaviour = "http" | "reset" | "silent";
const listeners: { stop(): void }[] = [];
afterAll(() => {
  for (const l of listeners) l.stop();
});

async function listener(behaviour: Behaviour): Promise<number> {
  const port = await freePort();
  const server = Bun.listen({
    hostname: "127.0.0.1",
    port,
    socket: {
      open(socket) {
        if (behaviour === "reset") socket.terminate();
      },
      // An HTTP server's answer to bytes it cannot parse (what PostgreSQL's driver sends first).
      data(socket) {
        if (behaviour === "http") socket.end("HTTP/1.1 400 Bad Request\r\nconnection: close\r\ncontent-length: 0\r\n\r\n");
      },
    },
  });
  listeners.push(server);
  return port;
}

/** A refusal, not a crash: one `reportgen:` line, no stack trace, source lines or runtime banner. */
function expectOneLine(stderr: string) {
  const lines = stderr.trim().split("\n");
  expect(lines).toHaveLength(1);
  expect(lines[0]).toStartWith("reportgen: PostgreSQL at postgres://reportgen:***@127.0.0.1:");
  expect(stderr).not.toContain("s3cret");
  expect(stderr).not.toMatch(/\bat .*:\d+:\d+|Bun v\d|\^/);
}

for (const [behaviour, what] of [
  ["http", "answers like an HTTP server and closes"],
  ["reset", "resets every connection"],
  ["silent", "accepts and never answers"],
] as const) {
  test(`a database URL whose server ${what}: one line, exit 1, within the first-contact bound`, async () => {
    const url = `postgres://reportgen:s3cret@127.0.0.1:${await listener(behaviour)}/reportgen`;
    for (const args of [
      ["admin", "list-keys", "--database-url", url],
      ["migrate", "--database-url", url],
    ]) {
      const t0 = performance.now();
      const r = runCli(sourceCommand, args);
      const ms = performance.now() - t0;
      expect(r.code).toBe(1);
      expectOneLine(r.stderr);
      // The bound plus a process start; before it, the HTTP case never ended.
      expect(ms).toBeLessThan(FIRST_CONTACT_MS + 5_000);
    }
  }, 60_000);
}

test("serve on a port another program holds, or an address this machine lacks: one line naming it and the fix, exit 1", async () => {
  const port = await freePort();
  const holder = Bun.listen({ hostname: "0.0.0.0", port, socket: { data() {} } });
  listeners.push(holder);
  const dataDir = mkdtempSync(join(tmpdir(), "reportgen-refusals-"));
  try {
    for (const [args, want] of [
      [["--port", String(port)], `reportgen: cannot listen on 0.0.0.0:${port}: the port is in use`],
      // Without the connection gate, Bun's own server opens the port: the same line.
      [["--port", String(port), "--max-connections", "0"], `reportgen: cannot listen on 0.0.0.0:${port}: the port is in use`],
      [["--host", "192.0.2.1", "--port", String(port)], `reportgen: cannot listen on 192.0.2.1:${port}: no network interface`],
    ] as const) {
      const r = runCli(sourceCommand, ["serve", "--data-dir", dataDir, ...args]);
      expect(r.code).toBe(1);
      // REPORTGEN_LOG_LEVEL=warn (runCli): the service's own JSON log lines stay out of the way.
      const lines = r.stderr.trim().split("\n");
      expect(lines).toHaveLength(1);
      expect(lines[0]).toStartWith(want);
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}, 60_000);
