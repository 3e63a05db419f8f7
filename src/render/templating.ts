// The server's side of the EJS sandboxes: a pool of child processes, one render at a time each, each
// under the supervisor (start timeout, backoff, warnings with restart counts). A template's deadline is
// enforced here by SIGKILL; a sandbox that dies for any other reason fails its render retryably, as the
// service's fault, and is replaced.
//
// The pool is elastic: one sandbox runs while idle, more (up to --sandboxes) start while reports keep
// waiting for one (GROW_AFTER_MS), and after IDLE_TRIM_MS without work the extra ones stop and a used one is replaced by a fresh one
// (a planned replacement: the new one starts first). A sandbox costs ~42 MiB PSS idle and grows to ~62
// MiB after a burst (QuickJS's WebAssembly memory never shrinks): this is how memory a burst raised goes
// back to idle, and why an idle service holds one sandbox, not one per core.
import type { Subprocess } from "bun";
import { allocatorEnv } from "../lib/allocator";
import type { ReportFailureCode } from "../lib/error-codes";
import { RenderError } from "../lib/errors";
import type { Logger } from "../lib/logger";
import { entrypointUrl, isCompiled } from "../lib/runtime";
import { type Child, ChildRegistry, Supervisor } from "../lib/supervisor";
import { StartHandshake, SupervisorGroup } from "../lib/supervisor-group";
import { childFailureCode, isSandboxReply, SANDBOX_CHILD_ARG, type SandboxReply } from "./sandbox-protocol";

export interface TemplatingOptions {
  processes: number;
  /** Nice value of the sandbox processes. */
  nice: number;
  timeoutMs: number;
  memoryBytes: number;
  outputMax: number;
  logger: Logger;
  /** Where the restart counts are kept (the App's); a private one if not given. */
  registry?: ChildRegistry;
  /** Idle time after which the pool shrinks back to one fresh sandbox (IDLE_TRIM_MS; tests shorten it). */
  idleTrimMs?: number;
  /** How long reports must have waited before one more sandbox starts (GROW_AFTER_MS; tests lengthen it). */
  growAfterMs?: number;
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
/** A sandbox loads QuickJS and EJS in ~300 ms; this allows for a saturated machine. */
const START_TIMEOUT_MS = 15_000;
/** Without work for this long, extra sandboxes stop and a used one is replaced by a fresh one. */
export const IDLE_TRIM_MS = 20_000;
/**
 * How long reports must have waited for a sandbox before one more starts. Starting one costs ~160 ms of
 * CPU (QuickJS's WebAssembly compiled again) and ~42 MiB, while an invoice's template runs in ~3 ms: a
 * wait shorter than this ends sooner in the sandboxes there are, and a lasting one still grows the pool.
 */
export const GROW_AFTER_MS = 25;

export const SANDBOX_CRASHED =
  "the EJS sandbox process stopped unexpectedly while rendering this report; this is a fault of the service, not of the template";

/** How to start this program again as a sandbox child: the executable re-runs itself (see main.ts). */
function childCommand(): string[] {
  return isCompiled ? [process.execPath, SANDBOX_CHILD_ARG] : [process.execPath, entrypointUrl("render/sandbox-child.ts").pathname];
}

/** One sandbox process: one generation of a supervised child. */
class Sandbox implements Child {
  readonly proc: Subprocess;
  task?: Task;
  private taskId = 0;
  /** Templates rendered by this sandbox (a fresh one, with 0, is as small as a sandbox gets). */
  renders = 0;
  /** When it last finished a task (or became ready). */
  idleSince = performance.now();
  private whenIdle?: () => void;
  private timer?: Timer;
  private readonly handshake = new StartHandshake();

  constructor(
    private readonly pool: TemplatingPool,
    private readonly sup: () => Supervisor<Sandbox>,
    private readonly died: (cause: string) => void,
  ) {
    const { memoryBytes, nice } = pool.opts;
    // A minimal environment: secrets of the server never reach the process that runs client code.
    this.proc = Bun.spawn(childCommand(), {
      env: {
        ...allocatorEnv(),
        PATH: process.env.PATH ?? "/usr/bin:/bin",
        TMPDIR: process.env.TMPDIR ?? "/tmp",
        REPORTGEN_SANDBOX_MEMORY: String(memoryBytes),
        REPORTGEN_SANDBOX_NICE: String(nice),
        // Intl in templates defaults to the server's time zone and locale, as the server's own Intl does.
        ...Object.fromEntries(["TZ", "LANG", "LC_ALL"].flatMap((k) => (process.env[k] ? [[k, process.env[k]]] : []))),
      },
      stdio: ["ignore", "ignore", "inherit"],
      ipc: (msg) => this.onMessage(msg),
      onExit: (_p, code, signal) => this.onExit(signal ? `killed by ${signal}` : `exited with code ${code}`),
      serialization: "json",
    });
  }

  start(): Promise<void> {
    return this.handshake.started;
  }

  async kill(): Promise<void> {
    clearTimeout(this.timer);
    this.proc.kill("SIGKILL");
    await this.proc.exited;
  }

  get idle(): boolean {
    return !this.task;
  }

  /** Resolves once no template is running here (a replaced sandbox gets no new one). */
  drained(): Promise<void> {
    if (!this.task) return Promise.resolve();
    return new Promise((resolve) => (this.whenIdle = resolve));
  }

  run(task: Task): void {
    this.task = task;
    this.renders++;
    const id = ++this.taskId;
    const { timeoutMs, outputMax } = this.pool.opts;
    // The template's own deadline, enforced from this side: the sandbox may be stuck in one native call.
    this.timer = setTimeout(
      () => this.killForTemplate("template_timeout", `the EJS template ran longer than its ${timeoutMs} ms deadline`),
      timeoutMs + KILL_GRACE_MS,
    );
    this.proc.send({ id, template: task.template, data: task.data, timeoutMs, outputMax });
  }

  /** Fails the render in flight, if any, as the service's fault. */
  failTask(): void {
    this.settle({ ok: false, code: "sandbox_crashed", message: SANDBOX_CRASHED });
  }

  private onMessage(msg: unknown) {
    if (!isSandboxReply(msg)) return this.killForTemplate("template_error", "the EJS sandbox sent a malformed reply");
    // The child's first message says it is ready (the start-up handshake).
    if (!this.handshake.done) return this.handshake.ready();
    if (msg.id !== this.taskId) return;
    if (!msg.ok) msg.code = childFailureCode(msg.code);
    // A sandbox that answers `fatal` is exiting because of the template: settle, then replace it without backoff.
    this.settle(msg);
    if (!msg.ok && msg.fatal) this.sup().fail(this, "the template broke the sandbox", { planned: true });
    this.pool.dispatch();
  }

  private settle(msg: SandboxReply | { ok: false; code: string; message: string }) {
    const task = this.task;
    clearTimeout(this.timer);
    this.task = undefined;
    if (!task) return;
    this.idleSince = performance.now();
    this.whenIdle?.();
    if (msg.ok) task.resolve(msg.html);
    // An unknown code from the (untrusted) child becomes internal_error in RenderError.
    else task.reject(new RenderError(msg.code as ReportFailureCode, msg.message));
  }

  /** The template overran a limit: its render fails with the template's code; the process is replaced. */
  private killForTemplate(code: string, message: string) {
    this.pool.opts.logger.warn("killing EJS sandbox", { code, ...this.task?.fields });
    this.settle({ ok: false, code, message });
    this.sup().fail(this, code, { planned: true });
    this.pool.dispatch();
  }

  private onExit(how: string) {
    clearTimeout(this.timer);
    this.handshake.fail(new Error(`the sandbox ${how} before it was ready`));
    this.died(`the sandbox process ${how}`);
  }
}

export class TemplatingPool extends SupervisorGroup<Sandbox, Task> {
  private registry?: ChildRegistry;
  private named = 0;
  private trimTimer?: Timer;
  /** Since when reports have waited for a sandbox without a pause, and the timer that looks again. */
  private waitingSince?: number;
  private growTimer?: Timer;
  constructor(readonly opts: TemplatingOptions) {
    super();
  }

  private get idleTrimMs(): number {
    return this.opts.idleTrimMs ?? IDLE_TRIM_MS;
  }

  /** Starts the first sandbox; resolves once it has come up or failed its first start (it keeps retrying). */
  start(): Promise<void> {
    this.registry = this.opts.registry ?? new ChildRegistry();
    this.trimTimer = setInterval(() => this.trim(), Math.min(5_000, this.idleTrimMs / 4));
    this.trimTimer.unref?.();
    return this.grow();
  }

  /** Adds a sandbox under its own supervisor. */
  private grow(): Promise<void> {
    const sup: Supervisor<Sandbox> = new Supervisor<Sandbox>({
      kind: "sandbox",
      name: `sandbox-${this.named++}`,
      create: (died) => new Sandbox(this, () => sup, died),
      startTimeoutMs: START_TIMEOUT_MS,
      logger: this.opts.logger,
      registry: this.registry!,
      onReady: () => this.dispatch(),
      drained: (s) => s.drained(),
      onDown: (s, f) => {
        s.failTask();
        // With no sandbox left after a crash, waiting renders go back to the queue untouched
        // (the processor holds new ones back until a sandbox is ready again).
        if (!f.planned && !this.usable) {
          this.rejectWaiting(new RenderError("renderer_unavailable", "no EJS sandbox is running; the report waits in the queue"));
        }
      },
    });
    return this.startMembers([sup]);
  }

  /**
   * After IDLE_TRIM_MS without work: every sandbox but one stops, and the one left, if it rendered
   * anything, is replaced by a fresh one (started before the old one goes: no gap).
   */
  private trim(): void {
    if (this.stopped || this.queued) return;
    const now = performance.now();
    const quiet = (s: Supervisor<Sandbox>) => {
      const c = s.child;
      return !!c && c.idle && now - c.idleSince >= this.idleTrimMs;
    };
    for (const sup of [...this.members]) {
      if (this.members.length > 1 && quiet(sup)) void this.removeMember(sup);
    }
    const last = this.members.length === 1 ? this.members[0]! : undefined;
    const c = last?.child;
    if (last && c && c.renders > 0 && quiet(last)) last.replace(c, "idle after work: a fresh sandbox is smaller");
  }

  /** Renders an EJS template with its data (JSON text); rejects with a RenderError on any template fault. */
  render(template: string, data: string, fields?: Record<string, unknown>): Promise<string> {
    return new Promise((resolve, reject) => this.enqueue({ template, data, fields, resolve, reject }));
  }

  /** A sandbox runs one template at a time. */
  protected room(s: Sandbox): number {
    return s.idle ? 1 : 0;
  }

  protected assign(_sup: Supervisor<Sandbox>, s: Sandbox, task: Task): void {
    s.run(task);
  }

  override dispatch(): void {
    super.dispatch();
    if (!this.queued || this.stopped) {
      this.waitingSince = undefined;
      return;
    }
    // Reports have waited GROW_AFTER_MS with every sandbox busy: one more, unless one is already on its way.
    const now = performance.now();
    this.waitingSince ??= now;
    const waited = now - this.waitingSince;
    const after = this.opts.growAfterMs ?? GROW_AFTER_MS;
    if (waited < after) {
      this.growTimer ??= setTimeout(() => {
        this.growTimer = undefined;
        this.dispatch();
      }, after - waited);
      return;
    }
    if (this.members.length < this.opts.processes && this.members.every((m) => m.ready)) {
      this.waitingSince = undefined;
      void this.grow();
    }
  }

  override async stop(): Promise<void> {
    clearInterval(this.trimTimer);
    clearTimeout(this.growTimer);
    await super.stop();
  }
}
