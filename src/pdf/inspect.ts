// What the pipeline reads from a PDF without a tool: whether it is encrypted, its first page's size.
import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import { open, stat } from "node:fs/promises";
import { A4, firstPageSize, type PageSize } from "./overlay-pdf";

/** The first page's size from the head of the PDF, where Skia writes the first page; A4 when not found. */
export async function readPageSize(path: string): Promise<PageSize> {
  const fh = await open(path, "r");
  try {
    // Skia writes the first page's dictionary near the start: at byte 1 552 of an invoice, 41 834 of a 1 MB report.
    const buf = Buffer.allocUnsafe(128 * 1024);
    const { bytesRead } = await fh.read(buf, 0, buf.length, 0);
    return firstPageSize(buf.subarray(0, bytesRead)) ?? A4;
  } finally {
    await fh.close();
  }
}

/** Flushes a file a tool wrote to the disk; returns its size. */
export async function flush(path: string): Promise<number> {
  const fh = await open(path, "r+");
  try {
    await fh.sync();
  } finally {
    await fh.close();
  }
  return (await stat(path)).size;
}

/**
 * Whether a stored PDF is encrypted: qpdf writes /Encrypt into the trailer at the end of the file, and
 * into the first-page trailer near its start when linearized; Chromium's own PDFs never have it there.
 * Synchronous (two 8 KB reads): a merge request checks its parts before it is queued.
 */
export function isEncryptedPdf(path: string): boolean {
  const fd = openSync(path, "r");
  try {
    const size = fstatSync(fd).size;
    const chunk = Buffer.alloc(Math.min(size, 8192));
    const look = (at: number) => chunk.subarray(0, readSync(fd, chunk, 0, chunk.length, at)).includes("/Encrypt");
    return look(0) || look(Math.max(0, size - chunk.length));
  } finally {
    closeSync(fd);
  }
}
