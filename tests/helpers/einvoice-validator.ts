// E-invoice conformance checks with the artefacts in shared/einvoice beside the clone (see its README):
// - validateEInvoice: its validate-einvoice script, the XML Schema plus the official EN 16931 rules (and the
//   XRechnung / Peppol rules when the invoice names them). The rules are code from elsewhere that no
//   repository stores: the script reads them from $EINVOICE_RULES_DIR and exits 2 naming what is missing,
//   and the tests that need it skip with that reason (validatorMissing), in CI too.
// - xsdErrors: the XML Schema alone, with xmllint; it needs no rules, so it runs in CI.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { EINVOICE_ARTEFACTS, sharedMissing } from "./shared";

export const VALIDATOR = join(EINVOICE_ARTEFACTS, "validate-einvoice");
/** One run takes ~2 s (Java start-up and compiling the rules); a busy machine can make it several times that. */
export const VALIDATOR_TIMEOUT_MS = 60_000;

export type Syntax = "CII" | "UBL";

/** One failed rule, as validate-einvoice --json names it. */
export interface Finding {
  id: string;
  flag: string;
  text: string;
  location: string;
  source: string;
}

export interface Verdict {
  /** 0 valid (warnings allowed), 1 invalid. */
  code: number;
  valid: boolean;
  syntax: Syntax | null;
  rules: string[];
  fatal: Finding[];
  warnings: Finding[];
  /** For messages: the fatal findings, one a line. */
  summary: string;
}

/** The official examples the availability probe checks, one per syntax (both valid under EN 16931). */
const PROBES: Record<Syntax, string> = { CII: "examples/CII_example1.xml", UBL: "examples/ubl/ubl-tc434-example1.xml" };
const probed = new Map<Syntax, string | undefined>();

/**
 * Why validate-einvoice cannot check `syntax` here, or undefined when it can: its exit-2 message (no rules
 * in $EINVOICE_RULES_DIR, java or xmllint missing, ...) from one run on an official example, made once.
 */
export function validatorMissing(syntax: Syntax = "CII"): string | undefined {
  if (!probed.has(syntax)) {
    let why = sharedMissing("einvoice/validate-einvoice") ?? sharedMissing(`einvoice/${PROBES[syntax]}`);
    if (!why) {
      const p = Bun.spawnSync([VALIDATOR, join(EINVOICE_ARTEFACTS, PROBES[syntax])], { stdout: "ignore", stderr: "pipe" });
      if (p.exitCode === 2) why = p.stderr.toString().trim();
    }
    probed.set(syntax, why);
  }
  return probed.get(syntax);
}

/** Runs validate-einvoice --json on an XML or PDF file; exit 2 (cannot run) throws its message. */
export async function validateEInvoice(file: string, rules?: string[]): Promise<Verdict> {
  const args = rules ? ["--rules", rules.join(",")] : [];
  const p = Bun.spawn([VALIDATOR, ...args, "--json", file], { stdout: "pipe", stderr: "pipe" });
  const [out, err, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  if (code !== 0 && code !== 1) throw new Error(`validate-einvoice exited ${code}: ${err.trim()}`);
  const r = JSON.parse(out) as Omit<Verdict, "code" | "summary">;
  const summary = r.fatal.map((f) => `${f.id} [${f.flag}] at ${f.location}: ${f.text}`).join("\n");
  return { code, valid: r.valid, syntax: r.syntax, rules: r.rules, fatal: r.fatal, warnings: r.warnings, summary };
}

/** validateEInvoice on bytes (XML or PDF), through a temporary file. */
export async function validateEInvoiceBytes(bytes: string | Uint8Array, rules?: string[]): Promise<Verdict> {
  const dir = mkdtempSync(join(tmpdir(), "reportgen-einvoice-"));
  try {
    const file = join(dir, typeof bytes !== "string" && isPdf(bytes) ? "invoice.pdf" : "invoice.xml");
    writeFileSync(file, bytes);
    return await validateEInvoice(file, rules);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const isPdf = (b: Uint8Array) => new TextDecoder().decode(b.subarray(0, 5)) === "%PDF-";

/** The XML Schema of each syntax's documents, under shared/einvoice. */
const XSD = {
  CrossIndustryInvoice: "xsd/uncefact/data/standard/CrossIndustryInvoice_100pD16B.xsd",
  Invoice: "xsd/ubl/maindoc/UBL-Invoice-2.1.xsd",
  CreditNote: "xsd/ubl/maindoc/UBL-CreditNote-2.1.xsd",
} as const;

/** Why xsdErrors cannot run here, or undefined when it can (it needs shared/einvoice/xsd and xmllint). */
export function xsdMissing(): string | undefined {
  return (
    sharedMissing(`einvoice/${XSD.CrossIndustryInvoice}`) ??
    sharedMissing(`einvoice/${XSD.Invoice}`) ??
    (Bun.which("xmllint") ? undefined : "xmllint is missing: bash scripts/setup --test installs libxml2-utils")
  );
}

/** The XML Schema a document's root element names. */
function schemaOf(text: string): string | undefined {
  const root = /<(?:[\w.-]+:)?(CrossIndustryInvoice|Invoice|CreditNote)[\s>]/.exec(text.replace(/<\?[^?]*\?>|<!--[\s\S]*?-->/g, ""))?.[1];
  return root && join(EINVOICE_ARTEFACTS, XSD[root as keyof typeof XSD]);
}

/** Whether each file matches its XML Schema: one xmllint run per schema, for many files at once. */
export function xsdValid(files: string[]): Map<string, boolean> {
  const bySchema = Map.groupBy(files, (f) => schemaOf(readFileSync(f, "utf8")) ?? "");
  const valid = new Map<string, boolean>();
  for (const [xsd, group] of bySchema) {
    if (!xsd) {
      for (const f of group) valid.set(f, false);
      continue;
    }
    const p = Bun.spawnSync(["xmllint", "--noout", "--schema", xsd, ...group], { stderr: "pipe" });
    const said = p.stderr.toString();
    for (const f of group) {
      if (said.includes(`${f} validates`)) valid.set(f, true);
      else if (said.includes(`${f} fails to validate`)) valid.set(f, false);
      else throw new Error(`xmllint said nothing about ${f} (exit ${p.exitCode}): ${said.slice(-500)}`);
    }
  }
  return valid;
}

/**
 * The XML Schema errors of an invoice (CII D16B, or UBL 2.1 Invoice / CreditNote, told by its root
 * element), as xmllint states them; [] when it is valid. `xml` is the text, or a path with `fromFile`.
 */
export function xsdErrors(xml: string, fromFile = false): string[] {
  const text = fromFile ? readFileSync(xml, "utf8") : xml;
  const xsd = schemaOf(text);
  if (!xsd) return ["the root element is no CrossIndustryInvoice, Invoice or CreditNote"];
  if (!existsSync(xsd)) throw new Error(`${xsd} is absent`);
  const p = Bun.spawnSync(["xmllint", "--noout", "--schema", xsd, "-"], { stdin: new TextEncoder().encode(text), stderr: "pipe" });
  // 0 valid, 3 and 4 invalid; anything else means xmllint could not check (e.g. the schema did not load).
  if (p.exitCode !== 0 && p.exitCode !== 3 && p.exitCode !== 4) throw new Error(`xmllint exited ${p.exitCode}: ${p.stderr.toString()}`);
  return p.exitCode === 0
    ? []
    : p.stderr
        .toString()
        .trim()
        .split("\n")
        .filter((l) => !l.endsWith(" fails to validate"));
}
