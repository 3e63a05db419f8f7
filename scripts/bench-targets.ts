// The bench's verdicts, declared once and worded once: the standing targets of every run (built by
// scripts/bench-report.ts), issue 48's goals, and the one line each is printed as. The bench prints these
// lines and scripts/gen-docs.ts renders the same lines from the results file, so the docs' PASS/FAIL
// lines are the bench's own. Pure: no flags read, nothing measured here.

export const fmt = (x: number, digits = 1) => (Number.isFinite(x) ? x.toFixed(digits) : "-");

/** One verdict. value null = the run did not measure the figure (pass null too; `note` says what does). */
export interface Verdict {
  name: string;
  value: number | null;
  op: "<=" | ">=";
  limit: number;
  pass: boolean | null;
  note?: string;
}

export function judge(name: string, value: number, op: "<=" | ">=", limit: number): Verdict {
  return { name, value, op, limit, pass: op === "<=" ? value <= limit : value >= limit };
}

/** The line the bench prints and the docs show for a verdict. */
export function verdictLine(v: Verdict): string {
  if (v.value === null || v.pass === null) return `----  ${v.name}: not measured by this run${v.note ? ` (${v.note})` : ""}`;
  return `${v.pass ? "PASS" : "FAIL"}  ${v.name}: ${fmt(v.value, 2)} ${v.op} ${fmt(v.limit, 2)}`;
}

/** "N/M targets met" over the verdicts that were measured. */
export function tally(vs: readonly Verdict[]): string {
  const measured = vs.filter((v) => v.pass !== null);
  const unmeasured = vs.length - measured.length;
  return `${measured.filter((v) => v.pass).length}/${measured.length} met${unmeasured ? `, ${unmeasured} not measured by this run` : ""}`;
}

/** What a goal reads from the interleaved run: a figure of one cell, or undefined when the run lacks it. */
export interface RunFigures {
  /** The long-poll service's throughput over the floor's, or undefined when (template, c) was not measured. */
  serviceOverFloor(template: string, c: number): number | undefined;
  /** The service tree's CPU per PDF (server + sandboxes + Chromium) of `template` over `base`'s, at c. */
  treeCpuRatio(template: string, base: string, c: number): number | undefined;
  /** The concurrencies of the run, lowest first. */
  concurrencies: readonly number[];
  /** The e-invoice check's p50 latency in ms (einvoice-validate, c = 1), or undefined when not measured. */
  validateP50?: number;
}

const MEMORY = "bun scripts/memory.ts measures it";
const PLAIN = "invoice-ejs";

/** Issue 48's goals, as its table gives them: memory and start, the floor at c = 1, 2, 4, and the archive features' cost. */
export function goals(run: RunFigures): Verdict[] {
  const out: Verdict[] = [
    { name: "idle PSS of the whole service tree (MiB)", value: null, op: "<=", limit: 300, pass: null, note: MEMORY },
    { name: "peak PSS, 240 invoices from 16 long-polling clients (MiB)", value: null, op: "<=", limit: 600, pass: null, note: MEMORY },
    { name: "/readyz answers 200 after start (s)", value: null, op: "<=", limit: 1.0, pass: null, note: MEMORY },
  ];
  for (const template of [PLAIN, "report-1000"])
    for (const c of [1, 2, 4]) {
      const name = `${template} c=${c}: service (long poll) ÷ headless-shell floor throughput`;
      const value = run.serviceOverFloor(template, c);
      out.push(value === undefined ? { name, value: null, op: ">=", limit: 1.0, pass: null } : judge(name, value, ">=", 1.0));
    }
  const c = run.concurrencies[0] ?? 1;
  for (const [template, what, limit] of [
    ["invoice-pdfa", "PDF/A-3b", 1.1],
    ["invoice-facturx", "Factur-X", 1.1],
    ["invoice-signed", "PAdES B-B", 1.08],
  ] as const) {
    const name = `${what} (${template}) c=${c}: service tree CPU per PDF ÷ the plain invoice's`;
    const value = run.treeCpuRatio(template, PLAIN, c);
    out.push(
      value === undefined
        ? { name, value: null, op: "<=", limit, pass: null, note: `--templates ${PLAIN},${template} measures it` }
        : judge(name, value, "<=", limit),
    );
  }
  return out;
}

const RENDER = "einvoice-render";

/** Issue 43's goals: the e-invoice check's speed, and what printing an incoming invoice readable costs. */
export function eInvoiceGoals(run: RunFigures): Verdict[] {
  const speed = "e-invoice check of the test suite's largest invoice (einvoice-validate) c=1: p50 (ms)";
  const c = run.concurrencies[0] ?? 1;
  const cost = `readable print of an incoming XRechnung (${RENDER}) c=${c}: service tree CPU per PDF ÷ the plain invoice's`;
  const ratio = run.treeCpuRatio(RENDER, PLAIN, c);
  return [
    run.validateP50 === undefined
      ? { name: speed, value: null, op: "<=", limit: 100, pass: null, note: "--templates einvoice-validate measures it" }
      : judge(speed, run.validateP50, "<=", 100),
    ratio === undefined
      ? { name: cost, value: null, op: "<=", limit: 1.25, pass: null, note: `--templates ${PLAIN},${RENDER} measures it` }
      : judge(cost, ratio, "<=", 1.25),
  ];
}
