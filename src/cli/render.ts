// `reportgen render TEMPLATE [--data FILE|-] [--engine ejs|raw] [--options FILE] [-o OUT|-]`: one PDF,
// no server, database or key. The same EJS sandbox, Chromium, network policy, limits and options as the
// service (src/render/standalone.ts); everything but OUT is written to a temporary folder, removed at the end.
// Exit codes: 0 a PDF; 2 the input's fault (the template, data, options, or the command line), with the
// API's failure code and message on stderr; 1 the service's fault (Chromium, the sandbox, the disk).

import { readFileSync } from "node:fs";
import type { Config } from "../config/settings";
import { isRetryable, isServiceFault } from "../lib/error-codes";
import { AppError, RenderError, StartupError } from "../lib/errors";
import { createLogger } from "../lib/logger";
import { assetNames } from "../modules/assets/resolver";
import { checkData } from "../modules/reports/input-limits";
import { checkPdfOptions, POST_FIELDS, resolvePdfOptions, type StoredPdfOptions } from "../pdf/options";
import { checkPdfLimits } from "../render/pdf-limits";
import { StandaloneRenderer } from "../render/standalone";
import { UsageError } from "./args";

export interface RenderArgs {
  template?: string;
  data?: string;
  engine?: string;
  options?: string;
  output?: string;
}

/** The input's fault: exit 2 with the API's code and message (and its details, like the API's 422 body). */
class InputFault extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
  }
}

const errText = (e: unknown) => (e as NodeJS.ErrnoException).code ?? (e as Error).message;

const ENGINES: Record<string, "ejs" | "raw"> = { ".ejs": "ejs", ".html": "raw", ".htm": "raw" };

function engineOf(a: RenderArgs): "ejs" | "raw" {
  if (a.engine !== undefined) {
    if (a.engine !== "ejs" && a.engine !== "raw") throw new UsageError(`--engine must be ejs or raw, not ${JSON.stringify(a.engine)}`);
    return a.engine;
  }
  const ext = /\.[^./]+$/.exec(a.template ?? "")?.[0]?.toLowerCase() ?? "";
  const engine = ENGINES[ext];
  if (!engine)
    throw new UsageError(
      `cannot tell the engine of ${JSON.stringify(a.template)} from its extension (.ejs is ejs, .html/.htm is raw): give --engine ejs or --engine raw`,
    );
  return engine;
}

let stdinTaken = "";
/** Reads a file, or stdin for "-" (once: two inputs cannot both come from stdin). */
async function readInput(path: string, what: string): Promise<string> {
  if (path === "-") {
    if (stdinTaken) throw new UsageError(`${what} and ${stdinTaken} cannot both come from stdin (-)`);
    stdinTaken = what;
    return await Bun.stdin.text();
  }
  try {
    return readFileSync(path, "utf8");
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    const why = err.code === "ENOENT" ? "no such file" : err.code === "EISDIR" ? "it is a folder" : err.message;
    throw new UsageError(`cannot read the ${what} ${JSON.stringify(path)}: ${why}`);
  }
}

function parseJson(text: string, what: string, field: string): unknown {
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new InputFault("validation_failed", `the ${what} is not valid JSON: ${(e as Error).message}`, [
      { field, problem: "not valid JSON" },
    ]);
  }
}

/** The options file, checked like the API's `options` field (its schema, then what the schema cannot say). */
async function readOptions(path: string): Promise<StoredPdfOptions> {
  const raw = parseJson(await readInput(path, "options file"), "options file", "options");
  // Loaded only when options are given: the API's schema module pulls in Elysia.
  const [{ pdfOptionsSchema }, { Value }] = await Promise.all([import("../pdf/options-schema"), import("@sinclair/typebox/value")]);
  if (!Value.Check(pdfOptionsSchema, raw)) {
    const details = [...Value.Errors(pdfOptionsSchema, raw)].slice(0, 20).map((i) => ({
      field: `options${i.path.replace(/\//g, ".")}`,
      problem: typeof i.schema.error === "string" ? i.schema.error : i.message,
    }));
    throw new InputFault("validation_failed", `the options are invalid (${[...new Set(details.map((d) => d.field))].join(", ")})`, details);
  }
  // Post-processing needs the service (stored reports, sealed passwords, the e-invoice checks' answer):
  // refused by name rather than printed without it.
  const post = POST_FIELDS.filter((f) => (raw as Record<string, unknown>)[f] !== undefined);
  if (post.length)
    throw new InputFault(
      "validation_failed",
      `render prints only; ${post.map((f) => `options.${f}`).join(", ")} ${post.length === 1 ? "is" : "are"} post-processing, which runs in the service: submit the report with POST /api/v1/generate-pdf-async`,
      post.map((f) => ({ field: `options.${f}`, problem: "post-processing: not run by render (use the API)" })),
    );
  return raw as StoredPdfOptions;
}

/** What goes to stderr for a failure of the input: the code, the message, what to change. */
function describeInputFault(code: string, message: string, details?: unknown): string {
  const lines = [`reportgen: render failed: ${code}: ${message}`];
  if (Array.isArray(details)) for (const d of details as { field: string; problem: string }[]) lines.push(`  ${d.field}: ${d.problem}`);
  return lines.join("\n");
}

export async function render(config: Config, args: RenderArgs): Promise<number> {
  if (!args.template) throw new UsageError("render needs a TEMPLATE file (.ejs, .html or .htm), or - for stdin with --engine");
  const engine = engineOf(args);
  const out = args.output ?? "-";
  if (out === "-" && process.stdout.isTTY)
    throw new UsageError("the PDF would go to the terminal: give -o FILE, or redirect stdout (> file.pdf)");
  // The outcome is what stderr says; the service's own warnings (a refused egress request, a killed sandbox)
  // show with --log-level warn or debug.
  const logger = createLogger(config.logLevel === "info" ? "error" : config.logLevel);
  let renderer: StandaloneRenderer | undefined;
  const onSignal = (signal: NodeJS.Signals) => {
    // Chromium and the temp folder go with us; 128 + the signal's number, as a shell reports it.
    void (renderer?.stop() ?? Promise.resolve()).finally(() => process.exit(signal === "SIGINT" ? 130 : 143));
  };
  process.once("SIGINT", onSignal).once("SIGTERM", onSignal);
  try {
    // Inputs are read and checked before anything starts: a typo costs no Chromium start.
    const template = await readInput(args.template, "template");
    if (template.length === 0)
      throw new InputFault("validation_failed", "the template is empty", [{ field: "html_template", problem: "empty" }]);
    if (template.length > config.templateMaxLength)
      throw new InputFault(
        "validation_failed",
        `the template is longer than ${config.templateMaxLength} characters (--template-max-length)`,
        [{ field: "html_template", problem: `over ${config.templateMaxLength} characters` }],
      );
    const data =
      engine === "ejs"
        ? checkData(args.data === undefined ? {} : parseJson(await readInput(args.data, "data file"), "data file", "data"), {
            maxBytes: config.dataMaxSize,
            maxDepth: config.dataMaxDepth,
            maxKeys: config.dataMaxKeys,
          })
        : "";
    const stored = args.options === undefined ? undefined : await readOptions(args.options);
    if (stored) checkPdfOptions(stored);
    if (stored?.chunk)
      throw new InputFault("validation_failed", "options.chunk joins parts the service prints and stores: submit the report to a server", [
        { field: "options.chunk", problem: "not with reportgen render" },
      ]);

    renderer = new StandaloneRenderer(config, logger);
    await renderer.start({ ejs: engine === "ejs" });
    const html = engine === "ejs" ? await renderer.templating!.render(template, data) : template;
    // No account here, so no asset library: a reference would silently print nothing.
    const asset = assetNames(html, stored?.header_template, stored?.footer_template)[0];
    if (asset !== undefined)
      throw new RenderError(
        "asset_not_found",
        `the template refers to asset:${asset}, but reportgen render has no asset library (assets belong to an account of the service): inline it as a data: URL, or render through the service`,
      );
    const pdf = await renderer.pool!.render({ html, options: resolvePdfOptions(stored ? JSON.stringify(stored) : null) });
    checkPdfLimits(pdf, config);
    // Only a complete PDF reaches OUT: a failed render leaves an existing file as it was.
    try {
      await Bun.write(out === "-" ? Bun.stdout : out, pdf);
    } catch (e) {
      console.error(`reportgen: render failed: the PDF could not be written to ${out === "-" ? "stdout" : out}: ${errText(e)}`);
      return 1;
    }
    return 0;
  } catch (e) {
    if (e instanceof InputFault) {
      console.error(describeInputFault(e.code, e.message, e.details));
      return 2;
    }
    if (e instanceof AppError) {
      console.error(describeInputFault(e.code, e.message, e.details));
      return e.status < 500 ? 2 : 1;
    }
    if (e instanceof RenderError) {
      // A code that is retried (render_failed too) is not the template's for certain: exit 1, like a service fault.
      const service = isRetryable(e.code) || isServiceFault(e.code);
      console.error(`reportgen: render failed: ${e.code}: ${e.message}`);
      return service ? 1 : 2;
    }
    if (e instanceof UsageError || e instanceof StartupError) throw e;
    // An unexpected exception is the service's fault: say so, with its cause.
    console.error(`reportgen: render failed: internal_error: ${(e as Error).message ?? e}`);
    return 1;
  } finally {
    await renderer?.stop();
    process.off("SIGINT", onSignal).off("SIGTERM", onSignal);
  }
}
