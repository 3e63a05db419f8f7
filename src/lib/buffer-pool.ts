// Big scratch buffers kept for reuse. Fresh memory costs its page faults when it is first written: on
// the development machine (a VM, where a fault is dear) a fresh 6.5 MB buffer, an A4 page at 150 dpi,
// costs ~24 ms of CPU, five times zlib's encoding of that page; a buffer used before costs nothing.
// The pool keeps a few, up to a size, and lets them go when it has not been used for a while, so an
// idle service does not hold them.

export interface BufferPoolOptions {
  /** Buffers bigger than this are not kept (a page at 600 dpi is 100 MB: used once, given back). */
  maxBytes: number;
  /** How many are kept: one per page being worked on at once is enough. */
  keep: number;
  /** Kept buffers are let go this long after the pool was last used. */
  idleMs: number;
}

export class BufferPool {
  private free: ArrayBuffer[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly o: BufferPoolOptions) {}

  /** A buffer of `size` bytes whose contents are whatever was left in it; give it back with release(). */
  take(size: number): Uint8Array {
    // The smallest that fits (the list is biggest first).
    let i = -1;
    for (let j = 0; j < this.free.length && this.free[j]!.byteLength >= size; j++) i = j;
    const buffer = i >= 0 ? this.free.splice(i, 1)[0]! : new ArrayBuffer(size);
    return new Uint8Array(buffer, 0, size);
  }

  /** Gives back a buffer take() lent, once nothing reads it any more. */
  release(view: Uint8Array): void {
    const buffer = view.buffer as ArrayBuffer;
    if (buffer.byteLength <= this.o.maxBytes && !this.free.includes(buffer)) {
      this.free.push(buffer);
      // The biggest first, and no more than `keep`.
      this.free.sort((a, b) => b.byteLength - a.byteLength).splice(this.o.keep);
    }
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.free = [];
    }, this.o.idleMs);
    this.timer.unref?.();
  }

  /** Bytes held for reuse now. */
  get heldBytes(): number {
    return this.free.reduce((a, b) => a + b.byteLength, 0);
  }
}
