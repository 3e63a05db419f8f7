// A budget of bytes shared by concurrent tasks: a task takes its size before it starts and gives it back
// when it ends; one that does not fit waits until it does, in the order they asked. A task larger than
// the whole budget still runs, alone, so nothing waits forever.

export class ByteBudget {
  private used = 0;
  private readonly waiting: { bytes: number; go: () => void }[] = [];

  constructor(private readonly limit: number) {}

  /** Resolves once `bytes` fit beside what is in use; the function it gives returns them (call it once). */
  async take(bytes: number): Promise<() => void> {
    // Counted here, or by wake() before it lets a waiter go, so the next one is measured against it.
    if (this.waiting.length === 0 && this.fits(bytes)) this.used += bytes;
    else await new Promise<void>((go) => this.waiting.push({ bytes, go }));
    let given = false;
    return () => {
      if (given) return;
      given = true;
      this.used -= bytes;
      this.wake();
    };
  }

  private fits(bytes: number): boolean {
    return this.used === 0 || this.used + bytes <= this.limit;
  }

  private wake(): void {
    // First in, first out: a small task does not pass a big one that has waited longer.
    while (this.waiting.length > 0 && this.fits(this.waiting[0]!.bytes)) {
      const next = this.waiting.shift()!;
      this.used += next.bytes;
      next.go();
    }
  }
}
