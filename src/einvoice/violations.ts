// A broken EN 16931 rule, and the one 422 e_invoice_invalid that lists them all: shared by the shape
// check (check.ts) and the business rules (business-rules.ts).
import { AppError } from "../lib/errors";

/** One broken rule: its id (EN 16931, XRechnung BR-DE-*, Peppol PEPPOL-EN16931-*, or "schema"), the JSON path, and what is wrong. */
export interface EInvoiceViolation {
  rule: string;
  field: string;
  problem: string;
}

export const MAX_VIOLATIONS = 50;

/** The 422 for a list of violations. */
export function eInvoiceInvalid(violations: EInvoiceViolation[]): AppError {
  const list = violations.slice(0, MAX_VIOLATIONS);
  const first = list[0]!;
  const more = violations.length > 1 ? ` (and ${violations.length - 1} more: see details)` : "";
  return new AppError("e_invoice_invalid", `the e-invoice breaks rule ${first.rule} at ${first.field}: ${first.problem}${more}`, list);
}
