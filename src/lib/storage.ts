// Storage faults: recognising a full, read-only or failing disk in any error (Node's errno codes,
// SQLite's result codes), and a monitor that knows whether the data dir can take writes now.
// A full disk must never kill the service: callers refuse new work (507/503) and keep what they
// hold recoverable, and the monitor notices by itself when space returns.
import { closeSync, fsyncSync, openSync, rmSync, statfsSync, writeSync } from "node:fs";
import { join } from "node:path";
import { RenderError } from "./errors";
import type { Logger } from "./logger";

export type StorageFault = "full" | "read_only" | "io";

const FULL = new Set(["ENOSPC", "EDQUOT", "SQLITE_FULL"]);
const READ_ONLY = new Set(["EROFS", "SQLITE_READONLY"]);
const IO = new Set(["EIO", "SQLITE_IOERR", "SQLITE_CANTOPEN", "SQLITE_CORRUPT"]);

/** Which storage fault an error is, if it is one. SQLite's extended codes (SQLITE_IOERR_WRITE…) count too. */
export function storageFault(e: unknown): StorageFault | undefined {
  const code = String((e as { code?: unknown })?.code ?? "");
  const base = code.startsWith("SQLITE_") ? code.replace(/^(SQLITE_[A-Z]+?)(_[A-Z_]+)?$/, "$1") : code;
  if (FULL.has(code) || FULL.has(base)) return "full";
  if (READ_ONLY.has(code) || READ_ONLY.has(base)) return "read_only";
  if (IO.has(code) || IO.has(base)) return "io";
  // Errors that crossed a thread boundary keep only their message.
  const msg = String((e as { message?: unknown })?.message ?? "");
  if (/\b(ENOSPC|EDQUOT)\b|no space left on device|database or disk is full/i.test(msg)) return "full";
  if (/\bEROFS\b|read-only file system|attempt to write a readonly database/i.test(msg)) return "read_only";
  return undefined;
}

/** The report failure code for a storage fault (part of the closed failure-code list). */
export const storageFailureCode = (f: StorageFault) => (f === "full" ? "storage_full" : "storage_error");

/** A storage error met while rendering, as the RenderError the processor recognises (it crosses threads). */
export function asStorageRenderError(e: unknown): unknown {
  const f = storageFault(e);
  if (!f) return e;
  return new RenderError(storageFailureCode(f), `the server could not store the PDF: ${(e as Error).message}`);
}

export interface StorageStatus {
  /** ok; low: free space under the reserve; full / read_only / io: a write failed and has not succeeded since. */
  state: "ok" | "low" | StorageFault;
  freeBytes: number;
  totalBytes: number;
}

/** How often the disk is looked at again (statfs, and a write probe while faulted). */
const PROBE_EVERY_MS = 1_000;

export class StorageMonitor {
  private fault?: StorageFault;
  private last?: StorageStatus;
  private lastAt = 0;
  private recoveredWaiters: (() => void)[] = [];
  private timer?: Timer;

  constructor(
    readonly dir: string,
    /** Reserve kept free for work already accepted: submissions are refused below it. */
    readonly minFreeBytes: number,
    private readonly logger: Logger,
  ) {}

  /** The current state, probed at most once a second. */
  status(now = Date.now()): StorageStatus {
    if (this.last && now - this.lastAt < PROBE_EVERY_MS) return this.last;
    this.lastAt = now;
    let freeBytes = 0;
    let totalBytes = 0;
    try {
      const s = statfsSync(this.dir);
      freeBytes = s.bavail * s.bsize;
      totalBytes = s.blocks * s.bsize;
    } catch (e) {
      this.report(storageFault(e) ?? "io", e);
    }
    if (this.fault && freeBytes >= this.minFreeBytes && this.writeProbe()) this.clear();
    const state = this.fault ?? (freeBytes < this.minFreeBytes ? "low" : "ok");
    this.last = { state, freeBytes, totalBytes };
    return this.last;
  }

  /** Whether new work may be accepted: enough room and no unresolved write failure. */
  get accepting(): boolean {
    return this.status().state === "ok";
  }

  /** Whether writes are expected to succeed (no unresolved failure; the reserve may be in use). */
  get writable(): boolean {
    const s = this.status().state;
    return s === "ok" || s === "low";
  }

  /** Records a storage error seen anywhere; writers pause until a probe shows the disk usable again. */
  report(fault: StorageFault, cause?: unknown): void {
    if (this.fault === fault) return;
    const first = !this.fault;
    this.fault = fault;
    // Held until the next probe (a second from now): writers back off instead of hammering the disk.
    this.last = { state: fault, freeBytes: this.last?.freeBytes ?? 0, totalBytes: this.last?.totalBytes ?? 0 };
    this.lastAt = Date.now();
    this.logger.error("storage fault: new reports are refused and rendering pauses until the data dir is writable again", {
      fault,
      dir: this.dir,
      error: cause,
    });
    // Someone must look again even when no request comes in.
    if (first) this.timer = setInterval(() => this.status(), PROBE_EVERY_MS);
  }

  /** Resolves once the data dir takes writes again (at once when it does now). */
  recovered(): Promise<void> {
    if (this.writable) return Promise.resolve();
    return new Promise((resolve) => this.recoveredWaiters.push(resolve));
  }

  stop(): void {
    clearInterval(this.timer);
    for (const w of this.recoveredWaiters.splice(0)) w();
  }

  private clear() {
    this.logger.warn("storage recovered: accepting and rendering reports again", { fault: this.fault, dir: this.dir });
    this.fault = undefined;
    clearInterval(this.timer);
    this.timer = undefined;
    for (const w of this.recoveredWaiters.splice(0)) w();
  }

  /** Writes, syncs and removes a small file: a read-only or failing disk refuses it. */
  private writeProbe(): boolean {
    const file = join(this.dir, `.write-probe-${process.pid}`);
    try {
      const fd = openSync(file, "w", 0o600);
      try {
        writeSync(fd, Buffer.alloc(4096));
        fsyncSync(fd);
      } finally {
        closeSync(fd);
      }
      return true;
    } catch {
      return false;
    } finally {
      try {
        rmSync(file, { force: true });
      } catch {}
    }
  }
}
