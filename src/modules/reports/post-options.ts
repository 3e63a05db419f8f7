// The post-processing options of a report between the request and its row: checked (422 naming the
// field, or 404 for another account's report) before anything is queued, and stored with the passwords
// sealed. The PDF pipeline (src/pdf/) turns them back into a plan when the report is processed.
import { existsSync } from "node:fs";
import { checkEInvoice, eInvoiceXml, templateInvoice } from "../../einvoice";
import { AppError, notFound, validationFailed } from "../../lib/errors";
import { UUID_RE } from "../../lib/ids";
import type { PasswordSeal } from "../../lib/seal";
import { isEncryptedPdf } from "../../pdf/inspect";
import {
  eInvoiceInPdf,
  imageConflicts,
  type Problem,
  pdfaConflicts,
  postOptionProblems,
  signatureConflicts,
} from "../../pdf/option-problems";
import type { PostOptions, StoredEInvoice, StoredPostOptions } from "../../pdf/options";
import type { PdfStore } from "../files/pdf-store";
import { FileStore } from "../files/store";
import type { ReportsRepo } from "./repo";

/**
 * Problems of a report another one uses (a merge part, a stamp): unknown or another account's is a
 * 404 (thrown), not finished or encrypted a problem of `field`.
 */
export async function usedReportProblem(
  repo: ReportsRepo,
  files: PdfStore,
  accountId: string,
  id: string,
  field: string,
): Promise<{ problem?: Problem; pageCount?: number }> {
  const r = UUID_RE.test(id) ? await repo.get(id, accountId) : undefined;
  if (!r) throw notFound("report", id);
  if (r.status !== "succeeded")
    return {
      problem: {
        field,
        problem: `report ${id} is ${r.status}: only succeeded reports can be used (wait for it with GET /reports/${id}?wait=30)`,
      },
    };
  if (r.conformance && (JSON.parse(r.conformance) as { image?: unknown }).image)
    return { problem: { field, problem: `report ${id} is pictures (options.image), not a PDF: use a report printed as PDF` } };
  // On the data dir the file says at once whether it is there and protected; with a bucket, the
  // processor finds out when it fetches the part (part_unavailable), without a request to the bucket here.
  if (files instanceof FileStore) {
    const path = files.pathOf(id);
    if (!existsSync(path)) return { problem: { field, problem: `report ${id} no longer has its PDF (expired): generate it again` } };
    if (isEncryptedPdf(path))
      return {
        problem: {
          field,
          problem: `report ${id} is password-protected: use an unprotected report, and protect the result with options.encryption`,
        },
      };
  }
  return { pageCount: r.pageCount ?? 0 };
}

/**
 * Checks the post-processing options of a new report and returns them as they are stored (passwords
 * sealed for `reportId`). Throws 422 naming every bad field, or 404 for a stamp report of another account.
 */
export async function preparePostOptions(
  o: PostOptions,
  ctx: {
    reportId: string;
    accountId: string;
    repo: ReportsRepo;
    files: PdfStore;
    seal: PasswordSeal;
    /** The account's signing identity by id (its signer's name), undefined when it has none such. */
    signingIdentity?: (accountId: string, id: string) => Promise<{ commonName: string } | undefined>;
  },
  prefix = "options",
): Promise<StoredPostOptions> {
  // Problems of the request itself first: the stamp's report is looked up only for a request that is right.
  throwProblems(postOptionProblems(o, prefix));
  // The invoice's own rules first (422 e_invoice_invalid naming each EN 16931 rule), then how it combines.
  const checkedEInvoice = o.e_invoice === undefined ? undefined : checkEInvoice(o.e_invoice, `${prefix}.e_invoice`);
  const pictures = imageConflicts(o, prefix);
  if (pictures.length) throw new AppError("image_conflict", pictures.map((c) => `${c.field}: ${c.problem}`).join("; "), pictures);
  const conflicts = pdfaConflicts(o, prefix);
  if (conflicts.length) throw new AppError("pdfa_conflict", conflicts.map((c) => `${c.field}: ${c.problem}`).join("; "), conflicts);
  const signing = signatureConflicts(o, prefix);
  if (signing.length) throw new AppError("signature_conflict", signing.map((c) => `${c.field}: ${c.problem}`).join("; "), signing);
  let signer: string | undefined;
  if (o.signature) {
    const id = o.signature.identity_id;
    const identity = UUID_RE.test(id) ? await ctx.signingIdentity?.(ctx.accountId, id) : undefined;
    if (!identity) throw notFound("signing identity", id);
    signer = identity.commonName;
  }
  if (o.stamp && "pdf_report_id" in o.stamp) {
    const { problem } = await usedReportProblem(ctx.repo, ctx.files, ctx.accountId, o.stamp.pdf_report_id, `${prefix}.stamp.pdf_report_id`);
    if (problem) throwProblems([problem]);
  }
  const { encryption, e_invoice, ...others } = o;
  if (others.signature) others.signature = { ...others.signature, signer };
  const rest: StoredPostOptions =
    e_invoice === undefined
      ? others
      : {
          ...others,
          ...(eInvoiceInPdf(e_invoice) && { pdfa: "3b" as const }),
          e_invoice: storedEInvoice(e_invoice, prefix, checkedEInvoice),
        };
  if (!encryption) return rest;
  const sealed = ctx.seal.seal(ctx.reportId, { user: encryption.user_password ?? "", owner: encryption.owner_password });
  return { ...rest, encryption: { sealed, ...(encryption.permissions ? { permissions: encryption.permissions } : {}) } };
}

/**
 * options.e_invoice as stored: the XML (reportgen's, in the format asked for, or the client's CII bytes
 * unchanged), its format, profile and summary, and for a JSON invoice the template's `e_invoice`
 * variable, made from the same check (`checked`, when the caller has made it already). Throws 422 e_invoice_invalid.
 */
export function storedEInvoice(input: unknown, prefix = "options", checked = checkEInvoice(input, `${prefix}.e_invoice`)): StoredEInvoice {
  const xml_base64 =
    checked.source === "xml"
      ? String((input as { xml_base64: string }).xml_base64).replace(/\s+/g, "")
      : Buffer.from(eInvoiceXml(checked), "utf8").toString("base64");
  const { number, currency, grand_total } = checked.summary;
  const summary = { number, currency, grand_total };
  if (checked.source === "xml") {
    const file_name = checked.profile === "xrechnung" ? "xrechnung.xml" : "factur-x.xml";
    return { format: "facturx", profile: checked.profile, embed: true, file_name, xml_base64, summary };
  }
  const t = checked.target;
  return {
    format: t.format,
    ...(t.profile && { profile: t.profile }),
    embed: t.embed,
    file_name: t.fileName,
    xml_base64,
    summary,
    // The same checked figures as the XML's, for the template (see withEInvoiceData).
    template_data: templateInvoice(checked),
  };
}

/** The e-invoice XML a report's stored options carry (to store beside its PDF), or undefined when none. */
export function eInvoiceXmlOf(optionsJson: string | null | undefined): Uint8Array | undefined {
  if (!optionsJson?.includes('"e_invoice"')) return undefined;
  const xml = (JSON.parse(optionsJson) as StoredPostOptions).e_invoice?.xml_base64;
  return xml === undefined ? undefined : Buffer.from(xml, "base64");
}

export function throwProblems(problems: Problem[]): void {
  if (problems.length)
    throw validationFailed(`the request body is invalid (${problems.map((p) => p.field).join(", ")}); see details`, problems);
}

/**
 * The data an EJS template is rendered with: the report's `data` as given, plus `e_invoice` (the
 * checked invoice with its computed figures) when the report embeds a JSON e-invoice. A key
 * `e_invoice` of the data itself is replaced. The data JSON is re-parsed only for such reports.
 */
export function withEInvoiceData(dataJson: string | null, optionsJson: string | null): string {
  const data = dataJson ?? "{}";
  if (!optionsJson?.includes('"template_data"')) return data;
  const invoice = (JSON.parse(optionsJson) as StoredPostOptions).e_invoice?.template_data;
  return invoice ? JSON.stringify({ ...(JSON.parse(data) as object), e_invoice: invoice }) : data;
}
