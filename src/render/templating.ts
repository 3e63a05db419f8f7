// The server's side of the EJS sandboxes: a pool of child processes, one render at a time each,
// with a hard deadline enforced by SIGKILL and an automatic respawn.
import type { Subprocess } from "bun";
import { RenderError } from "../lib/errors";
import type { ReportFailureCode } from "../lib/error-codes";
import { entrypointUrl, isCompiled } from "../lib/runtime";
import type { Logger } from "../lib/logger";
import { isSandboxReply, SANDBOX_CHILD_ARG, type SandboxReply } from "./sandbox-protocol";

export interface TemplatingOptions {
  processes: number;
  /** Nice value of the sandbox processes. */
  nice: number;
  timeoutMs: number;
  memoryBytes: number;
  outputMax: number;
  logger: Logger;
}

interface Task {
  template: string;
  data: string;
  /** Log fields of the report (report_id, request_id). */
  fields?: Record<string, unknown>;
  resolve: (html: string) => void;
  reject: (e: Error) => void;
}

/** Past the sandbox's own interrupt deadline, how long before the process is killed. */
const KILL_GRACE_MS = 500;

/** How to start this program again as a sandbox child: the executable re-runs itself (see main.ts). */
function childCommand(): string[] {
  return isCompiled ? [process.execPath, SANDBOX_CHILD_ARG] : [process.execPath, entrypointUrl("render/sandbox-child.ts").pathname];
}

class Slot {
  proc?: Subprocess;
  task?: Task;
  taskId = 0;
  timer?: Timer;
  ready = false;
  private waitReady?: () => void;

  constructor(private readonly pool: TemplatingPool) {}

  start(): Promise<void> {
    this.ready = false;
    const { memoryBytes } = this.pool.opts;
    const started = new Promise<void>((r) => (this.waitReady = r));
    // A minimal environment: secrets of the server never reach the process that runs client code.
    this.proc = Bun.spawn(childCommand(), {
      env: { PATH: process.env.PATH ?? "/usr/bin:/bin", TMPDIR: process.env.TMPDIR ?? "/tmp", REPORTGEN_SANDBOX_MEMORY: String(memoryBytes), REPORTGEN_SANDBOX_NICE: String(this.pool.opts.nice) },
      stdio: ["ignore", "ignore", "inherit"],
      ipc: (msg, proc) => proc === this.proc && this.onMessage(msg),
      onExit: (proc) => this.onExit(proc),
      serialization: "json",
    });
    return started;
  }

  run(task: Task): void {
    this.task = task;
    const id = ++this.taskId;
    const { timeoutMs, outputMax } = this.pool.opts;
    this.timer = setTimeout(() => this.kill("template_timeout", `the EJS template ran longer than its ${timeoutMs} ms deadline`), timeoutMs + KILL_GRACE_MS);
    this.proc!.send({ id, template: task.template, data: task.data, timeoutMs, outputMax });
  }

  private onMessage(msg: unknown) {
    if (!isSandboxReply(msg)) return this.kill("template_error", "the EJS sandbox sent a malformed reply");
    if (!this.ready) {
      this.ready = true;
      this.waitReady?.();
      return this.pool.dispatch();
    }
    if (msg.id !== this.taskId) return;
    // A sandbox that answers `fatal` is exiting: take it out of rotation before anything is dispatched.
    if (!msg.ok && msg.fatal) this.ready = false;
    this.settle(msg);
  }

  private settle(msg: SandboxReply | { ok: false; code: string; message: string }) {
    const task = this.task;
    clearTimeout(this.timer);
    this.task = undefined;
    if (task) {
      if (msg.ok) task.resolve(msg.html);
      else task.reject(new RenderError(msg.code as ReportFailureCode, msg.message)); // an unknown code becomes internal_error
    }
    this.pool.dispatch();
  }

  private kill(code: string, message: string) {
    this.pool.opts.logger.warn("killing EJS sandbox", { code, ...this.task?.fields });
    // Out of rotation first: settling dispatches waiting work, which must not go to this process.
    this.ready = false;
    this.proc?.kill("SIGKILL");
    this.settle({ ok: false, code, message });
  }

  private onExit(proc: Subprocess) {
    if (proc !== this.proc) return;
    this.ready = false;
    if (this.task) this.settle({ ok: false, code: "template_error", message: "the EJS sandbox stopped while rendering (the template may have exhausted its memory)" });
    if (!this.pool.stopped) void this.start();
  }
}

export class TemplatingPool {
  private readonly slots: Slot[] = [];
  private readonly waiting: Task[] = [];
  stopped = false;

  constructor(readonly opts: TemplatingOptions) {}

  async start(): Promise<void> {
    for (let i = 0; i < this.opts.processes; i++) this.slots.push(new Slot(this));
    await Promise.all(this.slots.map((s) => s.start()));
  }

  /** Renders an EJS template with its data (JSON text); rejects with a RenderError on any template fault. */
  render(template: string, data: string, fields?: Record<string, unknown>): Promise<string> {
    if (this.stopped) return Promise.reject(new RenderError("shutting_down", "the service is shutting down", true));
    return new Promise((resolve, reject) => {
      this.waiting.push({ template, data, fields, resolve, reject });
      this.dispatch();
    });
  }

  dispatch(): void {
    for (const slot of this.slots) {
      if (this.waiting.length === 0) return;
      if (slot.ready && !slot.task) slot.run(this.waiting.shift()!);
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const t of this.waiting.splice(0)) t.reject(new RenderError("shutting_down", "the service is shutting down", true));
    await Promise.all(
      this.slots.map(async (s) => {
        s.proc?.kill("SIGKILL");
        await s.proc?.exited;
      }),
    );
  }
}
