// Bounds the CPU that argon2 verifications can take. Only two kinds of presented keys reach argon2:
// those whose check value matched (valid keys, and one wrong guess in 2^32), and keys created before
// check values existed. The first kind runs at once on a small number of slots; the second is paced
// by a token bucket, so a flood of guesses against such a key costs at most `pacedPerSecond`
// verifications (~10 ms each) per second, and is refused beyond a short queue.
import { RateLimiter } from "../../lib/rate-limit";

export interface Argon2GateOptions {
  /** Verifications running at once (each takes a libuv thread for ~10 ms). */
  concurrency: number;
  /** Paced verifications per second (keys without a check value). */
  pacedPerSecond: number;
  /** Paced verifications allowed to wait; beyond, the attempt is refused. */
  pacedQueueMax: number;
}

export class Argon2Gate {
  private running = 0;
  private readonly waiting: (() => void)[] = [];
  private pacedWaiting = 0;
  private readonly pace: RateLimiter;

  constructor(private readonly opts: Argon2GateOptions = { concurrency: 2, pacedPerSecond: 10, pacedQueueMax: 64 }) {
    this.pace = new RateLimiter(opts.pacedPerSecond, 1000, opts.pacedPerSecond);
  }

  /** Runs `fn` when a slot is free. */
  async run<T>(fn: () => Promise<T>): Promise<T> {
    if (this.running >= this.opts.concurrency) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.running++;
    try {
      return await fn();
    } finally {
      this.running--;
      this.waiting.shift()?.();
    }
  }

  /** Runs `fn` within the paced budget; undefined when too many are already waiting. */
  async paced<T>(fn: () => Promise<T>): Promise<T | undefined> {
    if (this.pacedWaiting >= this.opts.pacedQueueMax) return undefined;
    this.pacedWaiting++;
    try {
      for (let wait = this.pace.take("paced"); wait > 0; wait = this.pace.take("paced")) await Bun.sleep(wait * 1000);
    } finally {
      this.pacedWaiting--;
    }
    return this.run(fn);
  }
}
