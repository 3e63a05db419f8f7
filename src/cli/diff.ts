// `reportgen diff A.pdf B.pdf [--tolerance R] [--out DIR]`: two PDFs compared page by page as pictures,
// the way golden samples compare a template's versions (src/pdf/compare.ts), for users' own CI.
// Exit codes: 0 the same; 1 pages differ (one line per changed page on stdout, its diff PNG in DIR);
// 2 bad input (a file that is missing or no PDF, or the command line).
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { ratio } from "../config/parsers";
import type { Config } from "../config/settings";
import { runTool } from "../lib/run-tool";
import { comparePdfFiles } from "../pdf/compare";
import { framePng, type ToolRunner } from "../pdf/raster";
import { UsageError } from "./args";

export interface DiffArgs {
  files: string[];
  tolerance?: string;
  out?: string;
}

/** A file pdftoppm could not read: the input's fault (exit 2). */
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
  const run: ToolRunner = async (cmd, env) => {
    const r = await runTool(cmd, { timeoutMs: config.renderTimeout, env });
    if (r.code !== 0) throw new Unreadable(`${cmd.at(-2)} cannot be read as a PDF: ${r.stderr.trim().split("\n").at(-1) ?? r.code}`);
  };
  let result: Awaited<ReturnType<typeof comparePdfFiles>>;
  try {
    result = await comparePdfFiles(run, a.files[0]!, a.files[1]!, tolerance);
  } catch (e) {
    if (!(e instanceof Unreadable)) throw e;
    console.error(`reportgen: ${e.message}`);
    return 2;
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
