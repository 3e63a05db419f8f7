// POST /api/v1/e-invoices/render: an incoming e-invoice printed readable, as an ordinary report. The
// checker reads and checks it (in its worker threads); this file turns that reading into the report's
// request: the built-in layout (readable.ejs) or the caller's stored template, the data every such
// template sees, and the PDF options (the XML's embedded documents as attachments; with archive, PDF/A-3b
// carrying the original XML byte for byte).
import { xmlFileName } from "../../einvoice/formats";
import type { IncomingReading } from "../../einvoice/validate";
import { validationFailed } from "../../lib/errors";
import type { AttachmentRequest } from "../../pdf/options";
import type { GenerateInput } from "../reports/service";
import { RENDER_LABELS, RENDER_LANGUAGES, RENDER_LOCALES, type RenderLanguage } from "./labels";
import readable from "./readable.ejs" with { type: "text" };

/** The built-in layout (an EJS template over the data renderData() makes). */
export const READABLE_TEMPLATE = readable;

/** What a render request asks for besides the document and its rules. */
export interface RenderSettings {
  language: RenderLanguage;
  archive: boolean;
  template_id?: string;
  template_version?: number;
  webhook?: { url: string };
}

const flag = (v: unknown, field: string): boolean => {
  if (v === undefined || v === "" || v === false || v === "false") return false;
  if (v === true || v === "true") return true;
  throw validationFailed(`${field} is true or false`, [{ field, problem: "must be a boolean" }]);
};

/** The settings from the query (which wins: a raw body has no other place) and the JSON or multipart fields. */
export function renderSettings(query: Record<string, unknown>, fields: Record<string, unknown>): RenderSettings {
  const pick = (k: string) => query[k] ?? fields[k];
  const language = String(pick("language") ?? "en").toLowerCase();
  if (!(RENDER_LANGUAGES as readonly string[]).includes(language))
    throw validationFailed(`language is one of ${RENDER_LANGUAGES.join(", ")}`, [
      { field: "language", problem: `unknown language: ${language}` },
    ]);
  const templateId = pick("template_id");
  const version = pick("template_version");
  if (version !== undefined && !/^[1-9]\d{0,8}$/.test(String(version)))
    throw validationFailed("template_version is a positive integer", [
      { field: "template_version", problem: "must be a positive integer" },
    ]);
  const webhook = pick("webhook_url") ?? (fields.webhook as { url?: unknown } | undefined)?.url;
  return {
    language: language as RenderLanguage,
    archive: flag(pick("archive"), "archive"),
    ...(templateId === undefined || templateId === "" ? {} : { template_id: String(templateId) }),
    ...(version === undefined ? {} : { template_version: Number(version) }),
    ...(webhook === undefined ? {} : { webhook: { url: String(webhook) } }),
  };
}

/** The data a render template sees: the invoice, the verdict, and the words and locale of the language. */
export function renderData(reading: IncomingReading, language: RenderLanguage) {
  return {
    e_invoice: reading.e_invoice,
    validation: reading.validation,
    language,
    locale: RENDER_LOCALES[language],
    labels: RENDER_LABELS[language],
  };
}

/** The report request that prints the reading: an ordinary generate-pdf-async request, made here. */
export function renderRequest(reading: IncomingReading & { xml: Uint8Array }, s: RenderSettings): GenerateInput {
  const attachments: AttachmentRequest[] = [...reading.attachments];
  if (s.archive) {
    // The legal original, as received: named after the invoice, and never after one of its attachments.
    const base = xmlFileName(String(reading.e_invoice.number ?? "invoice"));
    const filename = attachments.some((a) => a.filename === base) ? `original-${base}` : base;
    attachments.unshift({ filename, mime_type: "application/xml", content_base64: Buffer.from(reading.xml).toString("base64") });
  }
  const options = {
    ...(attachments.length > 0 ? { attachments } : {}),
    ...(s.archive ? { pdfa: "3b" as const } : {}),
  };
  const template = s.template_id
    ? { template_id: s.template_id, ...(s.template_version ? { template_version: s.template_version } : {}) }
    : { engine: "ejs" as const, html_template: READABLE_TEMPLATE };
  return { ...template, data: renderData(reading, s.language), options, ...(s.webhook ? { webhook: s.webhook } : {}) };
}
