// `reportgen diff A.pdf B.pdf [--tolerance R] [--out DIR]`: two PDFs compared page by page as pictures,
// the way golden samples compare a template's versions (src/pdf/compare.ts), for users' own CI.
// Exit codes: 0 the same; 1 pages differ (one line per changed page on stdout, its diff PNG in DIR);
// 2 bad input (a file that is missing or no PDF, or the command line).
import { mkdirSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { ratio } from "../config/parsers";
import type { Config } from "../config/settings";
import { createLogger } from "../lib/logger";
import { comparePdfs } from "../pdf/compare";
import { framePng } from "../pdf/raster";
import { Rasteriser } from "../pdf/raster-thread";
import { UsageError } from "./args";

export interface DiffArgs {
  files: string[];
  tolerance?: string;
  out?: string;
}

/** A file the rasteriser could not read: the input's fault (exit 2). */
class Unreadable extends Error {}

export async function diff(config: Config, a: DiffArgs): Promise<number> {
  if (a.files.length !== 2) throw new UsageError(`diff takes two PDF files, A and B, not ${a.files.length}`);
  let tolerance = config.goldenTolerance;
  if (a.tolerance !== undefined) {
    try {
      tolerance = ratio(a.tolerance);
    } catch (e) {
      throw new UsageError(`--tolerance ${(e as Error).message}, not ${JSON.stringify(a.tolerance)}`);
    }
  }
  for (const f of a.files)
    if (!(await Bun.file(f).exists())) {
      console.error(`reportgen: ${f}: no such file`);
      return 2;
    }
  const rasteriser = new Rasteriser({ timeoutMs: config.renderTimeout, nice: 0, logger: createLogger("error") });
  let result: Awaited<ReturnType<typeof comparePdfs>>;
  try {
    const [before, after] = await Promise.all(a.files.map((f) => readFile(f)));
    // Each file opened first (no page drawn), so that the one that cannot be read is named.
    for (const [f, bytes] of [
      [a.files[0]!, before!],
      [a.files[1]!, after!],
    ] as const)
      await rasteriser.draw({ pdf: new Uint8Array(bytes), first: 1, last: 0, size: { dpi: 1 }, encode: "rgb" }).catch((e) => {
        throw new Unreadable(`${f} cannot be read as a PDF: ${(e as Error).message}`);
      });
    result = await comparePdfs((t) => rasteriser.draw(t), before!, after!, tolerance);
  } catch (e) {
    if (!(e instanceof Unreadable)) throw e;
    console.error(`reportgen: ${e.message}`);
    return 2;
  } finally {
    await rasteriser.stop();
  }
  if (result.same) return 0;
  if (a.out) mkdirSync(a.out, { recursive: true });
  for (const p of result.pages) {
    if (!p.diff) continue;
    const what =
      p.page > result.pagesBefore
        ? "added"
        : p.page > result.pagesAfter
          ? "removed"
          : `${(p.changedRatio * 100).toFixed(2)}% of pixels changed`;
    let line = `page ${p.page}: ${what}`;
    if (a.out) {
      const file = join(a.out, `page-${String(p.page).padStart(3, "0")}.png`);
      await Bun.write(file, await framePng(p.diff, 1));
      line += ` ${file}`;
    }
    console.log(line);
  }
  return 1;
}
