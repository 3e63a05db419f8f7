// Where PDFs live on disk: <data-dir>/reports/<report id>.pdf, written via <data-dir>/tmp.
// A PDF is durable before its report is recorded succeeded: temp file fsync'ed (by the render worker that
// writes it), renamed into place, and the folder fsync'ed, so a power cut cannot leave a succeeded report
// with an empty or missing file.
import { mkdirSync, readdirSync, renameSync, rmSync, statSync } from "node:fs";
import { open } from "node:fs/promises";
import { join } from "node:path";

export class FileStore {
  readonly reportsDir: string;
  readonly tmpDir: string;

  constructor(dataDir: string) {
    this.reportsDir = join(dataDir, "reports");
    this.tmpDir = join(dataDir, "tmp");
  }

  /**
   * Creates the folders and drops temp files a crash left behind (they are never served). The temp
   * folder is emptied, not re-created: on a full disk even a new folder may not fit.
   */
  init(): void {
    mkdirSync(this.reportsDir, { recursive: true, mode: 0o700 });
    mkdirSync(this.tmpDir, { recursive: true, mode: 0o700 });
    for (const name of readdirSync(this.tmpDir)) rmSync(join(this.tmpDir, name), { recursive: true, force: true });
  }

  pathOf(reportId: string): string {
    return join(this.reportsDir, `${reportId}.pdf`);
  }

  /** A unique path in the temp folder, on the same filesystem so the final rename is atomic. */
  tempPathFor(reportId: string): string {
    return join(this.tmpDir, `${reportId}.${Math.random().toString(36).slice(2)}.pdf`);
  }

  /** Moves a synced temp file into place (atomic: same filesystem). Call syncDir() before relying on it. */
  place(tempPath: string, reportId: string): void {
    renameSync(tempPath, this.pathOf(reportId));
  }

  /**
   * Makes the renames into the reports folder durable. Concurrent callers share one fsync when
   * they can: a caller arriving while one runs waits for the next, which covers its rename too.
   */
  syncDir(): Promise<void> {
    if (!this.dirSync) {
      this.dirSync = this.fsyncReportsDir().finally(() => (this.dirSync = undefined));
      return this.dirSync;
    }
    this.nextDirSync ??= this.dirSync.catch(() => {}).then(() => {
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

  remove(reportId: string): void {
    rmSync(this.pathOf(reportId), { force: true });
  }

  exists(reportId: string): boolean {
    try {
      return statSync(this.pathOf(reportId)).isFile();
    } catch {
      return false;
    }
  }

  /** Report ids that have a file on disk. */
  listIds(): string[] {
    return readdirSync(this.reportsDir)
      .filter((f) => f.endsWith(".pdf"))
      .map((f) => f.slice(0, -4));
  }
}
