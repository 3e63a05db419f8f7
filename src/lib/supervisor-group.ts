// Supervised children that share one kind of work (the render pool, the EJS sandbox pool): one task
// queue for the group, handed out to the ready members with room for more, and the one start-up
// handshake every child process or thread uses.
import { RenderError } from "./errors";
import type { Child, Supervisor } from "./supervisor";

/** What waits in a group's queue: anything that can be failed. */
export interface QueuedTask {
  reject(e: Error): void;
}

/**
 * The start-up handshake of every supervised child: `started` resolves when the child says it is ready
 * (its first message), and rejects when it fails or exits before that. Later calls change nothing.
 */
export class StartHandshake {
  readonly started: Promise<void>;
  private settle!: { ready: () => void; fail: (e: Error) => void };
  private settled = false;

  constructor() {
    this.started = new Promise<void>((ready, fail) => (this.settle = { ready, fail }));
    this.started.catch(() => {}); // a child that dies before anyone asked is reported by its supervisor
  }

  /** Whether the child said it was ready. */
  get done(): boolean {
    return this.settled;
  }

  ready(): void {
    if (this.settled) return;
    this.settled = true;
    this.settle.ready();
  }

  fail(e: Error): void {
    if (this.settled) return;
    this.settled = true;
    this.settle.fail(e);
  }
}

/**
 * Members share one task queue: dispatch() hands each waiting task to the ready member with the most
 * room (room()), in order, until none has room. Usable while any member is ready, healthy while any
 * one also passes its probe.
 */
export abstract class SupervisorGroup<C extends Child, T extends QueuedTask> {
  protected readonly members: Supervisor<C>[] = [];
  private readonly waiting: T[] = [];
  stopped = false;

  /** How many more tasks `child` takes now. */
  protected abstract room(child: C): number;
  /** Gives `task` to `child`, a ready member of `sup`. */
  protected abstract assign(sup: Supervisor<C>, child: C, task: T): void;

  /** At least one member is ready and passes its health probe. */
  get healthy(): boolean {
    return this.members.some((s) => s.healthy);
  }

  /** At least one member is ready (it may still have to answer its next probe). */
  get usable(): boolean {
    return this.members.some((s) => s.ready);
  }

  /** Tasks waiting for a member. */
  get queued(): number {
    return this.waiting.length;
  }

  /** Resolves when a member is ready (or the group stopped). */
  whenUsable(): Promise<void> {
    if (this.stopped || this.usable) return Promise.resolve();
    return Promise.race(this.members.map((s) => s.whenReady()));
  }

  /** Queues a task (or fails it at once once the group stopped) and hands out what can be. */
  protected enqueue(task: T): void {
    if (this.stopped) {
      task.reject(new RenderError("shutting_down", "the service is shutting down"));
      return;
    }
    this.waiting.push(task);
    this.dispatch();
  }

  dispatch(): void {
    while (this.waiting.length > 0) {
      let best: { sup: Supervisor<C>; child: C; room: number } | undefined;
      for (const sup of this.members) {
        const child = sup.child;
        const room = child ? this.room(child) : 0;
        if (child && room > (best?.room ?? 0)) best = { sup, child, room };
      }
      if (!best) return;
      this.assign(best.sup, best.child, this.waiting.shift()!);
    }
  }

  /**
   * Hands back every task that has not started (the instance is shutting down): each fails with
   * renderer_unavailable, which returns its report to the queue at once with its attempt refunded.
   */
  handBackWaiting(): number {
    const n = this.waiting.length;
    this.rejectWaiting(new RenderError("renderer_unavailable", "this instance is shutting down; the report goes back to the queue"));
    return n;
  }

  /** Fails every waiting task with `err`. */
  protected rejectWaiting(err: Error): void {
    for (const t of this.waiting.splice(0)) t.reject(err);
  }

  /** Starts every member; resolves once each has come up or failed its first start (it keeps retrying). */
  protected async startMembers(members: Supervisor<C>[]): Promise<void> {
    this.members.push(...members);
    await Promise.all(members.map((s) => s.start()));
  }

  /** Stops one member for good and drops it from the group (an elastic pool shrinking). */
  protected async removeMember(member: Supervisor<C>): Promise<void> {
    const i = this.members.indexOf(member);
    if (i < 0) return;
    this.members.splice(i, 1);
    await member.stop();
  }

  /** Fails what waits, then stops every member. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.rejectWaiting(new RenderError("shutting_down", "the service is shutting down"));
    await Promise.all(this.members.map((s) => s.stop()));
  }
}
