// The spool: this instance's files of reports being printed and post-processed, before the durable
// store (pdf-store.ts) takes them. The processor writes an attempt's PDF here, then commits it to the
// store, which reads it from here. Only the processor uses it; everything else sees the store.
//
// With a bucket, the spool is <data-dir>/spool (SpoolDir, below): uploaded, then deleted. On the data
// dir the spool is the reports folder itself (FileStore, store.ts): the PDF is written durably where it
// is served from, so committing it has nothing left to do.
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export interface PdfSpool {
  /** Creates the spool; removes what an earlier run left in it (never recorded as stored). */
  init(): void;
  /** Where this instance writes the attempt's PDF (the report processor, once Chromium has printed it). */
  pathOf(reportId: string, fence?: string): string;
  /** Prepares the attempt's file while the template renders (data dir: created and its folder synced). */
  reserve(reportId: string, fence: string): Promise<void>;
  /**
   * Writes an attempt's printed PDF into its file (pathOf), where the store's commit() takes it from.
   * Synchronous: for an invoice less than the round trips to libuv's pool that fs.promises makes
   * (lib/durable-write.ts).
   */
  writePrinted(reportId: string, fence: string, pdf: Uint8Array): void;
  /** Drops the attempt's file (the attempt failed or lost its claim); called with the store's discard(). */
  drop(reportId: string, fence: string): void;
}

/** A spool folder of this instance's own, for a store elsewhere (a bucket). */
export class SpoolDir implements PdfSpool {
  constructor(private readonly dir: string) {}

  /** The spool is this instance's alone: what a crash left there was never recorded as stored. */
  init(): void {
    rmSync(this.dir, { recursive: true, force: true });
    mkdirSync(this.dir, { recursive: true, mode: 0o700 });
  }

  pathOf(reportId: string, fence = "0"): string {
    return join(this.dir, `${reportId}.${fence}.pdf`);
  }

  /** Nothing to prepare: the file's durability does not matter (the upload is what counts). */
  reserve(): Promise<void> {
    return Promise.resolve();
  }

  /** The file the upload reads: no fsync, which would hold the thread for a flush that protects nothing. */
  writePrinted(reportId: string, fence: string, pdf: Uint8Array): void {
    writeFileSync(this.pathOf(reportId, fence), pdf, { mode: 0o600 });
  }

  drop(reportId: string, fence: string): void {
    rmSync(this.pathOf(reportId, fence), { force: true });
  }
}
