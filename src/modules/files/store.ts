// Where PDFs live on disk: <data-dir>/reports/<report id>.pdf, written via <data-dir>/tmp.
import { mkdirSync, readdirSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";

export class FileStore {
  readonly reportsDir: string;
  readonly tmpDir: string;

  constructor(dataDir: string) {
    this.reportsDir = join(dataDir, "reports");
    this.tmpDir = join(dataDir, "tmp");
  }

  /** Creates the folders and drops temp files a crash left behind (they are never served). */
  init(): void {
    mkdirSync(this.reportsDir, { recursive: true, mode: 0o700 });
    rmSync(this.tmpDir, { recursive: true, force: true });
    mkdirSync(this.tmpDir, { recursive: true, mode: 0o700 });
  }

  pathOf(reportId: string): string {
    return join(this.reportsDir, `${reportId}.pdf`);
  }

  /** A unique path in the temp folder, on the same filesystem so the final rename is atomic. */
  tempPathFor(reportId: string): string {
    return join(this.tmpDir, `${reportId}.${Math.random().toString(36).slice(2)}.pdf`);
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
