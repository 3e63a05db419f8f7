// qpdf, the tool most post-processing steps run in: one JSON job per run, bounded by the render
// deadline (the whole process group is killed when it passes). Whatever goes wrong with the tool is a
// service fault (postprocess_failed, retried by the processor), never the template's.
import { readFile, rm } from "node:fs/promises";
import { RenderError } from "../lib/errors";
import type { Logger } from "../lib/logger";
import { runTool, type ToolEnv } from "../lib/run-tool";
import { type PostPlan, stepNamed } from "./plan";
import type { QpdfLayout } from "./qpdf-layout";

export type { QpdfLayout } from "./qpdf-layout";

export interface QpdfOptions {
  qpdfPath: string;
  /** Bound on each qpdf run (the render deadline). */
  timeoutMs: number;
  /** CPU priority of qpdf (the render nice value). */
  nice: number;
  logger: Logger;
}

/**
 * qpdf's job (its JSON job format, read from standard input) for the qpdf steps of a plan: the
 * passwords never appear on a command line (readable in /proc), and a password or file name that
 * starts with "--" is a value, not an option, which qpdf's positional --encrypt arguments cannot
 * guarantee. `files` holds, by step name, what each step's prepare() wrote. `outline` is a qpdf JSON
 * update (a merge's bookmarks) applied to the input before the rest.
 */
export function qpdfJob(
  plan: PostPlan,
  files: { input: string; output: string } & Record<string, unknown>,
  outline?: string,
): Record<string, unknown> {
  const job: Record<string, unknown> = { inputFile: files.input, outputFile: files.output, warningExit0: "", noWarn: "" };
  if (outline) job.updateFromJson = outline;
  for (const s of plan.steps) {
    const step = stepNamed(s.name);
    if (step.tool !== "qpdf") throw new Error(`${s.name} is not a qpdf step`);
    // Two steps may add to one list of the job (attachments and factur-x.xml: addAttachment).
    for (const [k, v] of Object.entries(step.job(s.params, files[s.name])))
      job[k] = Array.isArray(job[k]) && Array.isArray(v) ? [...(job[k] as unknown[]), ...v] : v;
  }
  return job;
}

/**
 * The embedded file `name` of a PDF (qpdf --show-attachment), or undefined when the PDF has none by
 * that name. Throws when qpdf cannot run or read the file.
 */
export async function showAttachment(
  qpdfPath: string,
  file: string,
  name: string,
  o: { timeoutMs: number; nice?: number },
): Promise<Uint8Array | undefined> {
  const run = await runTool([qpdfPath, `--show-attachment=${name}`, "--", file], { ...o, stdout: true });
  if (run.code === 0) return run.stdout;
  if (run.code === 2 && /attachment/i.test(run.stderr)) return undefined;
  throw new Error(`qpdf --show-attachment failed (exit ${run.code ?? run.signal}${run.timedOut ? ", timed out" : ""}): ${run.stderr}`);
}

export class Qpdf {
  constructor(private readonly opts: QpdfOptions) {}

  /** Runs a qpdf job given as JSON on standard input (it may hold the PDF passwords). */
  job(job: Record<string, unknown>, reportId: string): Promise<void> {
    return this.run(["--job-json-file=/dev/stdin"], reportId, JSON.stringify(job));
  }

  /** The layout of a PDF (its pages and objects), from qpdf's JSON. */
  async layout(file: string, reportId: string): Promise<QpdfLayout> {
    const out = `${file}.json`;
    await this.run(["--json=2", "--json-key=pages", "--json-key=qpdf", file, out], reportId);
    return JSON.parse(await readFile(out, "utf8")) as QpdfLayout;
  }

  /**
   * qpdf's JSON (version 2) of a PDF, only the `keys` asked for, and with "qpdf" only the `objects`
   * given ("12 0 R"): a long tagged report holds hundreds of thousands of objects its steps never read.
   */
  async json(file: string, reportId: string, keys: string[], objects: string[] = []): Promise<Record<string, unknown>> {
    const out = `${file}.${keys.join("-")}.json`;
    const only = objects.map((ref) => `--json-object=${ref.replace(/^(\d+) (\d+) R$/, "$1,$2")}`);
    await this.run(["--json=2", ...keys.map((k) => `--json-key=${k}`), ...only, file, out], reportId);
    try {
      return JSON.parse(await readFile(out, "utf8")) as Record<string, unknown>;
    } finally {
      await rm(out, { force: true });
    }
  }

  run(args: string[], reportId: string, stdin?: string): Promise<void> {
    // The arguments are not logged: a job on standard input holds the PDF passwords, and nothing else does.
    return runServiceTool(this.opts, [this.opts.qpdfPath, ...args], reportId, { stdin });
  }
}

/**
 * Runs a post-processing tool (qpdf, the rasteriser's) niced under the render deadline. Its failure to
 * start, its crash or its overrun is a service fault (postprocess_failed, retried), logged with its
 * exit and the end of its stderr; the arguments and standard input are never logged.
 */
export async function runServiceTool(
  opts: Omit<QpdfOptions, "qpdfPath">,
  cmd: string[],
  reportId: string,
  io: { stdin?: string; env?: ToolEnv } = {},
): Promise<void> {
  const tool = cmd[0]!.split("/").pop()!;
  const run = await runTool(cmd, { timeoutMs: opts.timeoutMs, nice: opts.nice, ...io }).catch((e) => {
    opts.logger.error("a post-processing tool could not be started", { report_id: reportId, tool, path: cmd[0], error: e });
    throw new RenderError(
      "postprocess_failed",
      `the PDF post-processing tool (${tool}) could not be started: a service fault, not the template's`,
    );
  });
  if (run.code === 0) return;
  opts.logger.warn("a post-processing tool failed", {
    report_id: reportId,
    tool,
    exit_code: run.code,
    signal: run.signal,
    timed_out: run.timedOut,
    ms: Math.round(run.ms),
    stderr: run.stderr.trim().slice(-500),
  });
  throw new RenderError(
    "postprocess_failed",
    run.timedOut
      ? `the PDF post-processing tool (${tool}) did not finish within ${opts.timeoutMs} ms: a service fault, not the template's`
      : `the PDF post-processing tool (${tool}) failed: a service fault, not the template's`,
  );
}
