// Succeeded means durable, shown on the system calls of a real server (strace): for every report, its
// file is created in reports/ and that folder is fsync'ed, the PDF's file is fsync'ed, and only after
// both is the success committed (a sync of SQLite's write-ahead log, synchronous=FULL). And no
// succeeded report has a missing, empty or truncated file. Skipped when strace is absent.

import { Database } from "bun:sqlite";
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { api, descendants, runCli, sourceCommand, startServer } from "../helpers/process";

const strace = Bun.which("strace");
const dir = mkdtempSync(join(tmpdir(), "reportgen-durable-"));
const traceLog = join(dir, "strace.log");
const data = join(dir, "data");
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Call {
  pid: string;
  name: string;
  args: string;
  /** Line index where the call returned: the order that matters for durability. */
  done: number;
}

/** strace -f output to calls, joining "<unfinished ...>" with its "<... resumed>" line. */
function parse(text: string): Call[] {
  const lines = text.split("\n");
  const calls: Call[] = [];
  const open = new Map<string, { name: string; args: string }>();
  lines.forEach((line, i) => {
    const m = /^(\d+)\s+(.*)$/.exec(line);
    if (!m) return;
    const [, pid, rest] = m as unknown as [string, string, string];
    const unfinished = /^(\w+)\((.*) <unfinished \.\.\.>$/.exec(rest);
    if (unfinished) return void open.set(pid, { name: unfinished[1]!, args: unfinished[2]! });
    const resumed = /^<\.\.\. (\w+) resumed>(.*)= (-?\d+)/.exec(rest);
    if (resumed) {
      const o = open.get(pid);
      open.delete(pid);
      if (o && Number(resumed[3]) >= 0) calls.push({ pid, name: o.name, args: o.args + resumed[2], done: i });
      return;
    }
    const whole = /^(\w+)\((.*)\)\s+= (-?\d+)/.exec(rest);
    if (whole && Number(whole[3]) >= 0) calls.push({ pid, name: whole[1]!, args: whole[2]!, done: i });
  });
  return calls;
}

test.skipIf(!strace)(
  `every success is recorded only after the PDF and its folder entry are on disk${strace ? "" : " (SKIPPED: strace is not installed)"}`,
  async () => {
    const key = runCli(sourceCommand, ["admin", "create-key", "--name", "durable", "--data-dir", data]).stdout.trim();
    // --seccomp-bpf: only the traced calls stop the process, so the server runs at nearly full speed.
    const cmd = [strace!, "-f", "--seccomp-bpf", "-qq", "-y", "-e", "trace=fsync,fdatasync,openat", "-o", traceLog, ...sourceCommand];
    const server = await startServer(cmd, data);
    const ids: string[] = [];
    try {
      const submitted = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          api(server.baseUrl, key, "POST", "/generate-pdf-async", {
            engine: "ejs",
            html_template: `<h1><%= n %></h1>${"<p>row</p>".repeat(300)}`,
            data: { n: i },
          }),
        ),
      );
      for (const s of submitted) ids.push(s.body.report_id);
      for (const id of ids) expect((await api(server.baseUrl, key, "GET", `/reports/${id}?wait=30`)).body.data.status).toBe("succeeded");
    } finally {
      // strace's child is the server: stop it cleanly, then strace exits with it.
      const [pid] = descendants(server.proc.pid);
      if (pid) process.kill(pid, "SIGTERM");
      await server.proc.exited;
    }

    const calls = parse(readFileSync(traceLog, "utf8"));
    const syncs = (pred: (c: Call) => boolean) => calls.filter((c) => (c.name === "fsync" || c.name === "fdatasync") && pred(c));
    const walSyncs = syncs((c) => c.args.includes("reportgen.db-wal>"));
    const dirSyncs = syncs((c) => /<[^>]*\/reports>/.test(c.args));
    for (const id of ids) {
      const file = `/reports/${id}.pdf`;
      const created = calls.find((c) => c.name === "openat" && c.args.includes(file) && c.args.includes("O_CREAT"));
      expect(created, `creation of ${id}'s file`).toBeDefined();
      // A folder fsync that started after the file was created (its line comes later) makes its entry durable.
      const dirSync = dirSyncs.find((c) => c.done > created!.done);
      expect(dirSync, `fsync of reports/ after ${id}'s file was created`).toBeDefined();
      const fileSync = syncs((c) => c.args.includes(`${file}>`) && c.done > created!.done);
      expect(fileSync.length, `fsync of ${id}'s PDF`).toBeGreaterThan(0);
      const last = Math.max(dirSync!.done, fileSync[0]!.done);
      expect(
        walSyncs.some((c) => c.done > last),
        `a WAL sync (the success commit) after ${id}'s file and folder syncs`,
      ).toBe(true);
    }

    // Never succeeded with a missing, empty or truncated file.
    const db = new Database(join(data, "reportgen.db"), { readonly: true });
    const rows = db.query<{ id: string; size_bytes: number }, []>("SELECT id, size_bytes FROM reports WHERE status = 'succeeded'").all();
    db.close();
    expect(rows.length).toBe(ids.length);
    for (const r of rows) {
      const file = join(data, "reports", `${r.id}.pdf`);
      expect(statSync(file).size).toBe(r.size_bytes);
      expect(readFileSync(file).subarray(-8).toString("latin1")).toContain("%%EOF");
    }
  },
  120_000,
);
