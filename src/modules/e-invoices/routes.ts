// POST /api/v1/e-invoices/validate: checks an incoming e-invoice by the EN 16931, XRechnung and Peppol
// rules. Four ways to send it, one answer: the raw XML or PDF as the body (the guard hands those on as
// bytes, see the route's `raw` rule in module.ts), a multipart `file`, or JSON {xml_base64 | pdf_base64}.
import { Elysia, t } from "elysia";
import { RULE_SETS, type RuleSetId } from "../../einvoice/validate";
import type { apiGuard } from "../../http/auth";
import type { MultipartFile } from "../../http/multipart";
import { errorSchema, withBody } from "../../http/openapi";
import { validationFailed } from "../../lib/errors";
import { RULES_HELP, validationSchema } from "./model";
import { type EInvoiceChecker, type EInvoiceInput, looksLikePdf } from "./service";

/** The media types the route takes as the document itself; JSON and multipart are the guard's usual forms. */
export const RAW_TYPES = ["application/xml", "text/xml", "application/pdf"] as const;

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

function base64(field: string, value: string): Uint8Array {
  const compact = value.replace(/\s+/g, "");
  if (compact.length % 4 !== 0 || !BASE64.test(compact))
    throw validationFailed(`${field} is not valid base64: encode the document's bytes with the standard alphabet and padding`, [
      { field, problem: "invalid base64" },
    ]);
  return Buffer.from(compact, "base64");
}

/** The rule sets asked for: a comma-separated string or a list of names; undefined when none. */
export function rulesOf(value: unknown, field: string): RuleSetId[] | undefined {
  if (value === undefined || value === "") return undefined;
  const names = (Array.isArray(value) ? value : String(value).split(",")).map((s) => String(s).trim().toLowerCase()).filter(Boolean);
  const unknown = names.filter((n) => !(n in RULE_SETS));
  if (unknown.length > 0 || names.length === 0)
    throw validationFailed(`${field} names no rule set we check (${unknown.join(", ")}): use ${Object.keys(RULE_SETS).join(", ")}`, [
      { field, problem: `unknown rule set: ${unknown.join(", ")}` },
    ]);
  return [...new Set(names)] as RuleSetId[];
}

/** A raw body as the guard hands it on. */
interface RawBody {
  raw: Uint8Array;
  type: string;
}
const isRaw = (b: unknown): b is RawBody => typeof b === "object" && b !== null && (b as RawBody).raw instanceof Uint8Array;
const isFile = (v: unknown): v is MultipartFile => typeof v === "object" && v !== null && "content_base64" in v;

/**
 * The document from whichever form of body was sent, the rules the body asks for, and the body's other
 * fields (JSON or multipart; none for a raw body: its settings come in the query).
 */
export function inputOf(body: unknown): { input: EInvoiceInput; rules?: unknown; fields: Record<string, unknown> } {
  if (isRaw(body)) return { input: { kind: body.type === "application/pdf" ? "pdf" : "xml", bytes: body.raw }, fields: {} };
  const b = (body ?? {}) as Record<string, unknown>;
  if (isFile(b.file)) {
    const bytes = base64("file", b.file.content_base64);
    return { input: { kind: looksLikePdf(bytes, b.file.type) ? "pdf" : "xml", bytes }, rules: b.rules, fields: b };
  }
  if (typeof b.xml_base64 === "string")
    return { input: { kind: "xml", bytes: base64("xml_base64", b.xml_base64) }, rules: b.rules, fields: b };
  if (typeof b.pdf_base64 === "string")
    return { input: { kind: "pdf", bytes: base64("pdf_base64", b.pdf_base64) }, rules: b.rules, fields: b };
  throw validationFailed(
    "send the e-invoice: its XML (Content-Type: application/xml) or PDF (application/pdf) as the body, a multipart/form-data part named file, or JSON {xml_base64} or {pdf_base64}",
    [{ field: "body", problem: "no e-invoice" }],
  );
}

const binary = (description: string) => ({ schema: { type: "string" as const, format: "binary", description } });

/** JSON Schema properties, as the OpenAPI document writes them. */
type Properties = Record<string, Record<string, unknown>>;

/**
 * The OpenAPI request body of a route that takes an e-invoice (validate, render): the XML or PDF as the
 * body, a multipart `file`, or JSON {xml_base64 | pdf_base64}, each with the route's own fields.
 */
export function documentBody(formFields: Properties, jsonFields: Properties) {
  return {
    required: true,
    content: {
      "application/xml": binary("The e-invoice: UBL 2.1 Invoice or CreditNote, or CII CrossIndustryInvoice"),
      "application/pdf": binary("A Factur-X/ZUGFeRD PDF carrying the e-invoice"),
      "multipart/form-data": {
        schema: {
          type: "object" as const,
          required: ["file"],
          properties: {
            file: { type: "string" as const, format: "binary", description: "The XML or the Factur-X/ZUGFeRD PDF" },
            ...formFields,
          },
        },
      },
      "application/json": {
        schema: {
          type: "object" as const,
          properties: {
            xml_base64: { type: "string" as const, description: "The e-invoice's XML, base64" },
            pdf_base64: { type: "string" as const, description: "A Factur-X/ZUGFeRD PDF, base64" },
            ...jsonFields,
          },
        },
      },
    },
  };
}

export const eInvoicesRoutes = (checker: EInvoiceChecker, guard: ReturnType<typeof apiGuard>) =>
  new Elysia({ name: "e-invoices-routes", detail: { tags: ["E-invoices"] } }).use(guard).post(
    "/e-invoices/validate",
    async ({ body, query }) => {
      const { input, rules } = inputOf(body);
      // The query's rules win over the body's: a client can override without rewriting the body.
      const sets = rulesOf(query.rules, "rules") ?? rulesOf(rules, "rules");
      return { data: await checker.validate(input, sets) };
    },
    {
      query: t.Object({ rules: t.Optional(t.String({ description: RULES_HELP })) }),
      response: withBody({ 200: t.Object({ data: validationSchema }), 422: errorSchema }),
      detail: {
        operationId: "validateEInvoice",
        summary: "Check an incoming e-invoice",
        description:
          "Checks an e-invoice by our implementation of the official rules: EN 16931 (BR-*, BR-CO-*, BR-CL-*, the VAT category rules) always, " +
          "XRechnung (BR-DE-*) and Peppol BIS Billing 3.0 (PEPPOL-EN16931-R*) when the document's specification identifier names them or " +
          "`rules` asks for them. Send the XML (UBL 2.1 Invoice or CreditNote, or UN/CEFACT CII) as `application/xml`, a Factur-X/ZUGFeRD PDF as " +
          "`application/pdf` (its embedded factur-x.xml, zugferd-invoice.xml, ZUGFeRD-invoice.xml or xrechnung.xml is checked), a " +
          "multipart/form-data part `file`, or JSON `{xml_base64 | pdf_base64, rules?}`. The answer is 200 whether the invoice is valid or not: " +
          "`valid`, and each broken rule with an XPath to where. A body that is not XML or is hostile (a DOCTYPE or entities, nesting past 64, " +
          "an attribute over 4096 characters) is 400 e_invoice_unreadable; over 10 MB of XML 413 e_invoice_too_large; XML that is no invoice, " +
          "or a PDF without an embedded invoice, 422 e_invoice_unsupported.",
        requestBody: documentBody(
          { rules: { type: "string", description: RULES_HELP } },
          {
            rules: {
              oneOf: [{ type: "string" }, { type: "array", items: { type: "string", enum: Object.keys(RULE_SETS) } }],
              description: RULES_HELP,
            },
          },
        ),
      },
    },
  );
