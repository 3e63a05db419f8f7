// Where PDFs live on disk: <data-dir>/reports/<report id>.pdf, an e-invoice's XML beside it as <report id>.xml. The store and this instance's spool at
// once (spool.ts): a PDF is written where it is served from, so that nothing is copied.
// A PDF is durable before its report is recorded succeeded: its file is created and the folder
// fsync'ed when rendering starts (reserve), the report processor writes the PDF into it and fsyncs it,
// and only then is the success committed. A file whose report has not succeeded is never served
// (downloads check the status), and the processor removes it when the report does not succeed.
import { closeSync, mkdirSync, openSync, readdirSync, renameSync, rmSync, statSync } from "node:fs";
import { open } from "node:fs/promises";
import { join } from "node:path";
import { writeDurably } from "../../lib/durable-write";
import type { PdfStore, StoredPdf } from "./pdf-store";
import type { PdfSpool } from "./spool";

export class FileStore implements PdfStore, PdfSpool {
  readonly kind = "local";
  /** Disk faults are the StorageMonitor's (src/lib/storage.ts): it pauses the processor itself. */
  readonly writable = true;
  /** Nothing is written once the processor has stopped. */
  readonly refundsInterrupted = true;
  readonly reportsDir: string;
  /** Where older versions wrote PDFs before renaming them into place: removed at start. */
  private readonly legacyTmpDir: string;

  constructor(dataDir: string) {
    this.reportsDir = join(dataDir, "reports");
    this.legacyTmpDir = join(dataDir, "tmp");
  }

  /** Creates the reports folder; drops the temp folder of earlier versions (its files were never served). */
  init(): void {
    mkdirSync(this.reportsDir, { recursive: true, mode: 0o700 });
    rmSync(this.legacyTmpDir, { recursive: true, force: true });
  }

  pathOf(reportId: string): string {
    return join(this.reportsDir, `${reportId}.pdf`);
  }

  recovered(): Promise<void> {
    return Promise.resolve();
  }

  xmlPathOf(reportId: string): string {
    return join(this.reportsDir, `${reportId}.xml`);
  }

  /** The XML, fsync'ed, then its folder entry: durable before the success is recorded. */
  async putXml(reportId: string, _fence: string, xml: Uint8Array): Promise<void> {
    writeDurably(this.xmlPathOf(reportId), xml);
    await this.syncDir();
  }

  async readXml(reportId: string): Promise<Uint8Array | undefined> {
    const file = Bun.file(this.xmlPathOf(reportId));
    return (await file.exists()) ? file.bytes() : undefined;
  }

  /** The PDF itself, durable before its success is recorded (commit() has nothing left to do). */
  writePrinted(reportId: string, _fence: string, pdf: Uint8Array): void {
    writeDurably(this.pathOf(reportId), pdf);
  }

  async localFile(reportId: string): Promise<string | undefined> {
    return (await this.exists(reportId)) ? this.pathOf(reportId) : undefined;
  }

  /** writePrinted() wrote and fsync'ed the file, and reserve() synced its folder: nothing more to do. */
  commit(): Promise<void> {
    return Promise.resolve();
  }

  discard(reportId: string): Promise<void> {
    return this.remove(reportId);
  }

  /** The spool's file is the stored file here: discard(), which the processor calls with drop(), removes it once. */
  drop(): void {}

  async open(reportId: string): Promise<StoredPdf | undefined> {
    const size = this.sizeOf(reportId);
    // Bun streams the file from disk; the PDF is never held in memory whole.
    return size === undefined ? undefined : { body: Bun.file(this.pathOf(reportId)), size };
  }

  stop(): void {}

  /**
   * Creates the report's file, empty, and makes its folder entry durable; resolves once it is. Called
   * when rendering starts, so that the folder's fsync runs while Chromium prints, not between the
   * print and the recorded success, where only the PDF's own fsync and SQLite's commit remain (a rename
   * and a folder fsync through libuv's pool leave the critical path; commit 8c048b0 has the measurement).
   * A file left by a crash is truncated.
   */
  reserve(reportId: string): Promise<void> {
    closeSync(openSync(this.pathOf(reportId), "w", 0o600));
    return this.syncDir();
  }

  /**
   * Makes the files created in the reports folder durable. Concurrent callers share one fsync when
   * they can: a caller arriving while one runs waits for the next, which covers its file too.
   */
  syncDir(): Promise<void> {
    if (!this.dirSync) {
      this.dirSync = this.fsyncReportsDir().finally(() => (this.dirSync = undefined));
      return this.dirSync;
    }
    this.nextDirSync ??= this.dirSync
      .catch(() => {})
      .then(() => {
        this.nextDirSync = undefined;
        return this.syncDir();
      });
    return this.nextDirSync;
  }

  private dirSync?: Promise<void>;
  private nextDirSync?: Promise<void>;

  private async fsyncReportsDir(): Promise<void> {
    const fh = await open(this.reportsDir, "r");
    try {
      await fh.sync();
    } finally {
      await fh.close();
    }
  }

  /** Size of a stored PDF, or undefined when it is missing. */
  sizeOf(reportId: string): number | undefined {
    try {
      return statSync(this.pathOf(reportId)).size;
    } catch {
      return undefined;
    }
  }

  /** The thumbnail's file: beside the report's, the same name with another ending (listIds() sees only .pdf). */
  thumbnailPathOf(reportId: string): string {
    return join(this.reportsDir, `${reportId}.thumb.png`);
  }

  async thumbnail(reportId: string): Promise<Uint8Array | undefined> {
    const f = Bun.file(this.thumbnailPathOf(reportId));
    return (await f.exists()) ? new Uint8Array(await f.arrayBuffer()) : undefined;
  }

  /** Written whole or not at all (a rename), so that a reader never sees half a picture; it can be made again, so no fsync. */
  async putThumbnail(reportId: string, _fence: string, png: Uint8Array): Promise<void> {
    const tmp = `${this.thumbnailPathOf(reportId)}.${process.pid}.tmp`;
    await Bun.write(tmp, png);
    renameSync(tmp, this.thumbnailPathOf(reportId));
  }

  /** Removes the file and its thumbnail at once (the promise only carries a storage error, such as a read-only disk). */
  async remove(reportId: string): Promise<void> {
    rmSync(this.pathOf(reportId), { force: true });
    rmSync(this.xmlPathOf(reportId), { force: true });
    rmSync(this.thumbnailPathOf(reportId), { force: true });
  }

  async exists(reportId: string): Promise<boolean> {
    try {
      return statSync(this.pathOf(reportId)).isFile();
    } catch {
      return false;
    }
  }

  /** Report ids that have a file on disk (a PDF, an XML or both): one page. */
  async *listIds(): AsyncIterable<string[]> {
    const ids = readdirSync(this.reportsDir)
      .filter((f) => f.endsWith(".pdf") || f.endsWith(".xml"))
      .map((f) => f.slice(0, -4));
    yield [...new Set(ids)];
  }
}
