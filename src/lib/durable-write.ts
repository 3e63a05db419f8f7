// Files that must survive a power cut once written.
import { closeSync, fsyncSync, openSync, writeSync } from "node:fs";

/**
 * Writes a file and flushes it to the disk. Synchronous on purpose: a blocking write and fsync (~0.2 ms
 * for an invoice) cost the report processor less than the three round trips to libuv's pool that
 * fs.promises makes (open, sync, close: ~2 ms of the main thread); on ext4, `bun scripts/durability-cost.ts`.
 */
export function writeDurably(path: string, bytes: Uint8Array): void {
  const fd = openSync(path, "w", 0o600);
  try {
    for (let at = 0; at < bytes.length; ) at += writeSync(fd, bytes, at);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
