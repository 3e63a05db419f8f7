// Checks an incoming e-invoice (POST /api/v1/e-invoices/validate): the XML itself, or the XML a
// Factur-X/ZUGFeRD hybrid PDF carries. The check runs in the worker pool (einvoice/validate-worker.ts)
// so that large invoices never hold the event loop; qpdf, which the service already runs for PDFs,
// finds the embedded XML. Every refusal is an AppError whose message says what is wrong and what to send.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { EInvoiceValidation, IncomingReading, RuleSetId } from "../../einvoice/validate";
import { NotAnEInvoice } from "../../einvoice/validate";
import { EInvoiceValidatorPool } from "../../einvoice/validate-worker";
import { XmlRejected } from "../../einvoice/xml";
import { AppError } from "../../lib/errors";
import { showAttachment } from "../../pdf/qpdf";

/** The names a hybrid PDF gives its invoice: Factur-X, ZUGFeRD 2.x, ZUGFeRD 1.0, XRechnung in ZUGFeRD. */
export const EMBEDDED_NAMES = ["factur-x.xml", "zugferd-invoice.xml", "ZUGFeRD-invoice.xml", "xrechnung.xml"] as const;

/** What was sent: XML, or a PDF that should carry it. */
export interface EInvoiceInput {
  kind: "xml" | "pdf";
  bytes: Uint8Array;
}

export interface EInvoiceCheckerOptions {
  qpdfPath: string;
  /** Bound on the qpdf run that extracts the XML. */
  timeoutMs: number;
  /** Worker threads that run the check. */
  threads?: number;
  /** Their niceness (--render-nice): below the event loop's, so that it wins the cores. */
  nice?: number;
}

const PDF_MAGIC = "%PDF-";

/** Whether an uploaded file is a PDF: by its declared type, or its first bytes. */
export const looksLikePdf = (bytes: Uint8Array, declared?: string) =>
  declared === "application/pdf" || Buffer.from(bytes.subarray(0, 5)).toString("latin1") === PDF_MAGIC;

export class EInvoiceChecker {
  private pool: EInvoiceValidatorPool | undefined;

  constructor(private readonly opts: EInvoiceCheckerOptions) {}

  /** Starts the worker threads (App.start); a check before start starts them itself. */
  start() {
    this.pool ??= new EInvoiceValidatorPool(this.opts.threads ?? 2, this.opts.nice);
  }

  stop() {
    this.pool?.close();
    this.pool = undefined;
  }

  /**
   * Checks the e-invoice; `rules` replaces the rule sets the document names. The input's bytes are handed
   * over to the checking thread (no copy on the event loop): the caller must not use them afterwards.
   */
  async validate(input: EInvoiceInput, rules?: RuleSetId[]): Promise<EInvoiceValidation> {
    const xml = input.kind === "pdf" ? await this.embeddedXml(input.bytes) : input.bytes;
    this.start();
    try {
      return await this.pool!.validate(xml, { rules, handOver: true });
    } catch (e) {
      throw refusal(e);
    }
  }

  /**
   * Checks the e-invoice and reads it for the readable copy (POST /e-invoices/render); `xml` is the
   * document's XML as received (a PDF's embedded file), byte for byte, for archive: true.
   */
  async read(input: EInvoiceInput, rules?: RuleSetId[]): Promise<IncomingReading & { xml: Uint8Array }> {
    const xml = input.kind === "pdf" ? await this.embeddedXml(input.bytes) : input.bytes;
    this.start();
    try {
      return { ...(await this.pool!.read(xml, { rules })), xml };
    } catch (e) {
      throw refusal(e);
    }
  }

  /** The invoice XML a hybrid PDF embeds, under one of its standard names. */
  private async embeddedXml(pdf: Uint8Array): Promise<Uint8Array> {
    if (Buffer.from(pdf.subarray(0, 1024)).toString("latin1").indexOf(PDF_MAGIC) < 0)
      throw new AppError(
        "e_invoice_unreadable",
        "the body is not a PDF (no %PDF- header): send the Factur-X/ZUGFeRD PDF itself, or the XML with Content-Type: application/xml",
      );
    const dir = await mkdtemp(join(tmpdir(), "reportgen-einvoice-"));
    try {
      const file = join(dir, "in.pdf");
      await writeFile(file, pdf);
      for (const name of EMBEDDED_NAMES) {
        let xml: Uint8Array | undefined;
        try {
          xml = await showAttachment(this.opts.qpdfPath, file, name, { timeoutMs: this.opts.timeoutMs });
        } catch {
          throw new AppError(
            "e_invoice_unreadable",
            "the PDF cannot be read (qpdf refused it: damaged or encrypted): send an intact, unencrypted Factur-X/ZUGFeRD PDF, or its XML",
          );
        }
        if (xml) return xml;
      }
      throw new AppError(
        "e_invoice_unsupported",
        `the PDF embeds no e-invoice: none of ${EMBEDDED_NAMES.join(", ")} is attached. Send a Factur-X/ZUGFeRD PDF, or the invoice's XML`,
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }
}

/** The checker's refusals as API errors: hostile or broken XML, or XML that is no e-invoice. */
function refusal(e: unknown): unknown {
  if (e instanceof XmlRejected) {
    if (e.kind === "too_large") return new AppError("e_invoice_too_large", `${e.message}: send a smaller document`);
    return new AppError("e_invoice_unreadable", `the XML cannot be read (${e.kind}): ${e.message}`, [{ field: "body", problem: e.kind }]);
  }
  // Its message already names the roots read: a UBL 2.1 Invoice or CreditNote, or a CII invoice.
  if (e instanceof NotAnEInvoice) return new AppError("e_invoice_unsupported", e.message);
  return e;
}
