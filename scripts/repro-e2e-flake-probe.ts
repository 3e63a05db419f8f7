// Usage: bun --preload ./scripts/repro-e2e-flake-probe.ts <script or test run>; it logs to $TMPDIR/reportgen-pipe-probe-<pid>.log.
// An unanswered command it lists may be normal: Chromium drops the commands of a target that detached.
// Preload probe: watches every Chromium that playwright-core launches in this process through
// --remote-debugging-pipe (fd 3 written by us, fd 4 read by us). It checks, beside Playwright, that
// each CDP message read from fd 4 is whole JSON, that every command written gets its answer, that no
// data arrives on a pipe after its browser exited, and how many fds the process holds at each launch.
import cp from "node:child_process";
import { appendFileSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const logFile = join(tmpdir(), `reportgen-pipe-probe-${process.pid}.log`);
const log = (s: string) => appendFileSync(logFile, `${new Date().toISOString()} ${s}\n`);
let n = 0;
const stats = { browsers: 0, messages: 0, corrupt: 0, afterClose: 0, unanswered: 0, bytes: 0 };
const live = new Map<number, { n: number; pid: number }>();
const origSpawn = cp.spawn;
(cp as any).spawn = function (cmd: string, args: string[], opts: any) {
  const child = origSpawn.call(this, cmd, args, opts);
  if (!Array.isArray(args) || !args.includes("--remote-debugging-pipe")) return child;
  const id = ++n;
  stats.browsers++;
  const w: any = child.stdio[3];
  const r: any = child.stdio[4];
  const fdW = w?._handle?.fd;
  const fdR = r?._handle?.fd;
  let fds = -1;
  try {
    fds = readdirSync("/proc/self/fd").length;
  } catch {}
  for (const [fd, other] of live)
    if (fd === fdR || fd === fdW) log(`FD-CLASH browser#${id} fd ${fd} still held by live browser#${other.n}`);
  log(`launch browser#${id} pid=${child.pid} fdW=${fdW} fdR=${fdR} openFds=${fds} `);
  if (fdR !== undefined) live.set(fdR, { n: id, pid: child.pid! });
  let exited = false;
  let pending: Buffer[] = [];
  const sent = new Map<number, { t: number; method: string }>();
  r.on("data", (chunk: Buffer) => {
    stats.bytes += chunk.length;
    if (exited) {
      stats.afterClose++;
      log(`DATA-AFTER-EXIT browser#${id} fdR=${fdR} ${chunk.length} bytes: ${chunk.toString().slice(0, 200)}`);
    }
    let buf = Buffer.from(chunk); // copy
    let end = buf.indexOf(0);
    while (end !== -1) {
      pending.push(buf.subarray(0, end));
      const text = Buffer.concat(pending).toString();
      pending = [];
      stats.messages++;
      try {
        const m = JSON.parse(text);
        if (typeof m.id === "number") sent.delete(m.id);
      } catch {
        stats.corrupt++;
        log(`CORRUPT browser#${id} fdR=${fdR} len=${text.length}: ${text.slice(0, 300)} … ${text.slice(-100)}`);
      }
      buf = buf.subarray(end + 1);
      end = buf.indexOf(0);
    }
    if (buf.length) pending.push(buf);
  });
  const origWrite = w.write.bind(w);
  w.write = (data: any, ...rest: any[]) => {
    if (typeof data === "string" && data.startsWith("{")) {
      try {
        const m = JSON.parse(data);
        if (typeof m.id === "number") sent.set(m.id, { t: Date.now(), method: m.method });
      } catch {}
    }
    return origWrite(data, ...rest);
  };
  const timer = setInterval(() => {
    const now = Date.now();
    for (const [mid, s] of sent)
      if (now - s.t > 20_000) {
        stats.unanswered++;
        log(`UNANSWERED browser#${id} id=${mid} ${s.method} for ${now - s.t} ms`);
        sent.delete(mid);
      }
  }, 5000);
  (timer as any).unref?.();
  child.once("exit", (code: number | null, sig: string | null) => {
    exited = true;
    log(
      `exit browser#${id} pid=${child.pid} code=${code} sig=${sig} pendingBytes=${pending.reduce((a, b) => a + b.length, 0)} unansweredAtExit=${sent.size}`,
    );
  });
  child.once("close", () => {
    clearInterval(timer);
    if (live.get(fdR)?.n === id) live.delete(fdR);
  });
  r.once("close", () => log(`pipe-close browser#${id} fdR=${fdR}`));
  return child;
};
process.on("exit", () => log(`SUMMARY ${JSON.stringify(stats)}`));
log(`probe loaded in ${process.argv.join(" ")}`);
