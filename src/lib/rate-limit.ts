// In-memory token buckets keyed by a string (an access key id, a client address).

export class RateLimiter {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  /** `rate` tokens per `perMs`, holding at most `burst`. */
  constructor(
    private readonly rate: number,
    private readonly perMs: number,
    private readonly burst: number,
  ) {}

  /** Takes a token; returns 0 when allowed, else the seconds until one is available. */
  take(key: string, now = Date.now()): number {
    const b = this.refill(key, now);
    if (b.tokens >= 1) {
      b.tokens -= 1;
      return 0;
    }
    return ((1 - b.tokens) * this.perMs) / this.rate / 1000;
  }

  /** Seconds until a token is available, without taking one. */
  wait(key: string, now = Date.now()): number {
    const b = this.refill(key, now);
    return b.tokens >= 1 ? 0 : ((1 - b.tokens) * this.perMs) / this.rate / 1000;
  }

  private refill(key: string, now: number) {
    let b = this.buckets.get(key);
    if (!b) {
      if (this.buckets.size > 100_000) this.prune(now);
      b = { tokens: this.burst, at: now };
      this.buckets.set(key, b);
    }
    b.tokens = Math.min(this.burst, b.tokens + ((now - b.at) * this.rate) / this.perMs);
    b.at = now;
    return b;
  }

  /** Forgets full buckets so the map cannot grow without bound. */
  private prune(now: number) {
    for (const [k, b] of this.buckets) if (b.tokens + ((now - b.at) * this.rate) / this.perMs >= this.burst) this.buckets.delete(k);
  }
}
