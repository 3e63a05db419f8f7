// The bench's settings: its command line (flags, their checks, the templates and concurrencies chosen),
// the Chromium binaries and launch flags of the floors, and the sides measured. scripts/bench.ts runs the
// bench; its header comment is the usage, printed by --help.
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { settings } from "../src/config/settings";
import { launchArgs } from "../src/render/browser";
import { type BenchTemplate, benchTemplates, VALIDATE_NAME } from "./bench-templates";

// ---------------------------------------------------------------------------------------------
// Settings

/** The file whose header comment --help prints. */
const USAGE_FILE = join(import.meta.dir, "bench.ts");
export const ROOT = resolve(import.meta.dir, "..");
export const CHROMIUM = process.env.REPORTGEN_CHROMIUM_PATH || settings.chromiumPath.default;
export const DESKTOP_CHROMIUM = process.env.BENCH_DESKTOP_CHROMIUM || "/usr/lib/chromium/chromium";
/** Exactly the service's launch flags (src/render/browser.ts). */
export const LAUNCH_ARGS = launchArgs();

export const { values: flags } = parseArgs({
  args: process.argv.slice(2),
  options: {
    quick: { type: "boolean", default: false },
    rounds: { type: "string" },
    concurrency: { type: "string", default: "1,2,4,8" },
    templates: { type: "string" },
    "poll-ms": { type: "string", default: "50" },
    "floor-nice": { type: "string", default: "10" },
    binary: { type: "boolean", default: false },
    "service-root": { type: "string" },
    "serve-args": { type: "string" },
    json: { type: "string" },
    cluster: { type: "boolean", default: false },
    delivery: { type: "boolean", default: false },
    count: { type: "string" },
    check: { type: "boolean", default: false },
    verbose: { type: "boolean", default: false },
    rows: { type: "string" },
    "chunk-size": { type: "string" },
    "no-chunk": { type: "boolean", default: false },
    ledger: { type: "boolean", default: false },
    help: { type: "boolean", short: "h", default: false },
  },
  strict: true,
});

if (flags.help) {
  const lines = readFileSync(USAGE_FILE, "utf8").split("\n").slice(1);
  console.log(
    lines
      .slice(
        0,
        lines.findIndex((l) => !l.startsWith("//")),
      )
      .map((l) => l.slice(3))
      .join("\n"),
  );
  process.exit(0);
}

export const quick = flags.quick!;
export const SERVICE_ROOT = resolve(flags["service-root"] ?? ROOT);
export const EXTRA_SERVE_ARGS = flags["serve-args"]?.split(/\s+/).filter(Boolean) ?? [];
export const ROUNDS = Number(flags.rounds ?? (quick ? 2 : 5));
export const CONCURRENCY = flags.concurrency!.split(",").map(Number);
export const POLL_MS = Number(flags["poll-ms"]);
export const FLOOR_NICE = Number(flags["floor-nice"]);
export const WAIT_S = 30;
export const TOP_C = Math.max(...CONCURRENCY);
export const COUNT = flags.count === undefined ? undefined : Number(flags.count);
for (const [name, v, min] of [
  ["rounds", ROUNDS, 1],
  ["poll-ms", POLL_MS, 1],
  ["floor-nice", FLOOR_NICE, 0],
  ...(COUNT === undefined ? [] : [["count", COUNT, 1] as const]),
  ...CONCURRENCY.map((c) => ["concurrency", c, 1] as const),
] as const) {
  if (!Number.isInteger(v) || v < min) usage(`bad --${name} value`);
}
const allTemplates = benchTemplates();
/** report-100k is a run of its own (scripts/bench-big.ts), not a template of the interleaved rounds. */
export const BIG = flags.templates?.split(",").includes("report-100k") ?? false;
/** The e-invoice check's latency (scripts/bench-einvoice.ts): a measurement of each round, not a template. */
export const EINVOICE_VALIDATE = flags.templates?.split(",").includes(VALIDATE_NAME) ?? false;
export const TEMPLATES = flags.templates
  ? flags.templates
      .split(",")
      .filter((n) => n !== "report-100k" && n !== VALIDATE_NAME)
      .map(
        (n) =>
          allTemplates.find((t) => t.name === n) ??
          usage(`unknown template ${n}; use ${[...allTemplates.map((t) => t.name), VALIDATE_NAME].join(", ")}`),
      )
  : allTemplates.filter((t) => t.byDefault);
/** PDFs per measurement (--count, else the template's): at least 2 per client, so every client starts a PDF while the others print. */
export const countFor = (t: BenchTemplate, c: number) => Math.max(COUNT ?? (quick ? t.quickCount : t.count), 2 * c);

export type Side = "floor/shared" | "floor/ctx" | "floor/desktop" | "tuned" | "wait" | "poll";
export const SIDES: Side[] = ["floor/shared", "floor/ctx", "floor/desktop", "tuned", "wait", "poll"];
export const isService = (s: Side) => s === "wait" || s === "poll";

export function usage(msg: string): never {
  console.error(`bench: ${msg} (bun scripts/bench.ts --help)`);
  process.exit(2);
}
