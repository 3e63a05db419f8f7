// The placeholders of options.deliver's path, subject and body: {yyyy} {mm} {dd} (the UTC day the report
// was accepted), {report_id} and {template_id}. Expanded once, when the report is accepted, so every
// attempt of a delivery writes the same object key.
import { validationFailed } from "../../lib/errors";

export interface PathValues {
  reportId: string;
  templateId: string | null;
  acceptedAt: number;
}

const PLACEHOLDER = /\{(yyyy|mm|dd|report_id|template_id)\}/g;

/** `text` with its placeholders filled in; an unknown {name} stays as written. */
export function expand(text: string, v: PathValues): string {
  const d = new Date(v.acceptedAt);
  const values: Record<string, string> = {
    yyyy: String(d.getUTCFullYear()),
    mm: String(d.getUTCMonth() + 1).padStart(2, "0"),
    dd: String(d.getUTCDate()).padStart(2, "0"),
    report_id: v.reportId,
    template_id: v.templateId ?? "inline",
  };
  return text.replace(PLACEHOLDER, (_, name: string) => values[name]!);
}

/** The object key or file name of a delivery: the expanded path, checked to stay below its destination's prefix or directory. */
export function deliveryTarget(path: string | undefined, v: PathValues, field: string): string {
  const target = expand(path ?? "{report_id}.pdf", v);
  const problem = targetProblem(target);
  if (problem) throw validationFailed(`${field} ${problem}`, [{ field, problem }]);
  return target;
}

function targetProblem(target: string): string | undefined {
  if (target.startsWith("/")) return "must be relative (it goes below the destination's prefix or directory)";
  if (target.endsWith("/")) return "must name a file, not end with /";
  if (target.split("/").some((s) => s === ".." || s === "." || s === "")) return "must not contain empty, . or .. segments";
  // Control characters, backslashes and quotes would change what an SFTP batch command or a mail header means.
  if (/[\u0000-\u001f\u007f\\"]/.test(target)) return "must not contain control characters, backslashes or quotes";
  return undefined;
}
