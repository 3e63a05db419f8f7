// The e-invoice corpus with the official verdicts (../shared/einvoice/corpus/manifest.json), and our
// checker's agreement with them: verdict agreement, and recall and precision of the fatal rule ids.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { type RuleSetId, validateEInvoice } from "../../src/einvoice/validate";

/** shared/einvoice beside the clone (the repository's parent's shared/). */
export const EINVOICE_SHARED = join(import.meta.dir, "..", "..", "..", "shared", "einvoice");
export const MANIFEST = join(EINVOICE_SHARED, "corpus", "manifest.json");
export const corpusAbsent = existsSync(MANIFEST) ? undefined : `${MANIFEST} is absent (the corpus lives beside the clone, in shared/)`;

interface Entry {
  file: string;
  rules: RuleSetId[];
  expected: "valid" | "invalid";
  expected_rules: string[];
}

export interface FileResult {
  file: string;
  expected: "valid" | "invalid";
  ours: "valid" | "invalid";
  expectedRules: string[];
  ourRules: string[];
}

export interface Agreement {
  files: FileResult[];
  verdict: number;
  recall: number;
  precision: number;
}

/** Runs our checker on every corpus file with the rule sets the official run used. */
export function corpusAgreement(): Agreement {
  const manifest = JSON.parse(readFileSync(MANIFEST, "utf8")) as { files: Entry[] };
  const files = manifest.files.map((e): FileResult => {
    const res = validateEInvoice(readFileSync(join(EINVOICE_SHARED, "corpus", e.file)), { rules: e.rules });
    return {
      file: e.file,
      expected: e.expected,
      ours: res.valid ? "valid" : "invalid",
      expectedRules: e.expected_rules,
      ourRules: [...new Set(res.errors.map((x) => x.rule))].sort(),
    };
  });
  const invalid = files.filter((f) => f.expected === "invalid");
  const named = invalid.flatMap((f) => f.ourRules.map((id) => f.expectedRules.includes(id)));
  const wanted = invalid.flatMap((f) => f.expectedRules.map((id) => f.ourRules.includes(id)));
  return {
    files,
    verdict: files.filter((f) => f.expected === f.ours).length / files.length,
    recall: wanted.filter(Boolean).length / wanted.length,
    precision: named.length === 0 ? 1 : named.filter(Boolean).length / named.length,
  };
}
