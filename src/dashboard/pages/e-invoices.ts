// E-invoices: drop or paste an incoming e-invoice (UBL, CII, or a Factur-X/ZUGFeRD PDF), see whether it
// is valid by the EN 16931, XRechnung and Peppol rules (each broken rule with its id and the XPath of the
// field), and get its readable PDF: the same check and the same report as POST /e-invoices/validate and
// /render.
import type { EInvoiceValidation } from "../../einvoice/validate";
import { RENDER_LANGUAGES, type RenderLanguage } from "../../modules/e-invoices/labels";
import { type Html, html } from "../html";
import { layout, type Viewer } from "../layout";
import { type Notice, notice, pageHead } from "./common";
import { cardTable } from "./table";

const LANGUAGE_NAMES: Record<RenderLanguage, string> = { de: "Deutsch", en: "English", fr: "Français" };

export interface EInvoiceForm {
  xml: string;
  language: RenderLanguage;
  archive: boolean;
}

function issues(kind: "errors" | "warnings", list: EInvoiceValidation["errors"]): Html {
  if (!list.length) return html``;
  const title = kind === "errors" ? "Errors" : "Warnings";
  return html`<h3 id="${kind}-title">${title} (${list.length})</h3>
${cardTable({
  caption: `${title}: the rule broken, what it requires, and where (an XPath to the field)`,
  columns: ["Rule", "Message", "Field"],
  rows: list.map(
    (i) =>
      html`<tr><td data-label="Rule" class="mono rule-id">${i.rule}</td><td data-label="Message">${i.message}</td><td data-label="Field" class="mono xpath">${i.location}</td></tr>`,
  ),
})}`;
}

/** The verdict: valid or not, the rule sets checked, and each error and warning. */
export function verdictPanel(v: EInvoiceValidation): Html {
  const what = `${v.syntax.toUpperCase()} ${v.document === "credit_note" ? "credit note" : "invoice"}`;
  return html`<section class="panel" id="verdict" aria-labelledby="verdict-title" data-announce="${v.valid ? "The e-invoice is valid" : "The e-invoice is not valid"}">
  <h2 id="verdict-title">Validation</h2>
  ${
    v.valid
      ? html`<p class="notice ok"><strong>Valid.</strong> This ${what} breaks no rule of the rule sets checked.</p>`
      : html`<div class="notice error" role="alert"><p><strong>Not valid.</strong> This ${what} breaks ${v.errors.length} ${v.errors.length === 1 ? "rule" : "rules"}.</p></div>`
  }
  <p class="sub">Rules checked: ${v.rules.map((r) => r.version).join("; ")}${v.customization ? html` · Specification: <span class="mono">${v.customization}</span>` : ""}</p>
  ${issues("errors", v.errors)}
  ${issues("warnings", v.warnings)}
</section>`;
}

export function eInvoicesPage(
  viewer: Viewer,
  o: {
    input: EInvoiceForm;
    canRender: boolean;
    message?: Notice;
    error?: { field: "file" | "xml"; text: string };
    verdict?: Html;
    result?: Html;
  },
) {
  const i = o.input;
  const err = (field: string) => (o.error?.field === field ? html`<p id="${field}-error" class="field-error">${o.error.text}</p>` : "");
  const invalid = (field: string) => (o.error?.field === field ? html` aria-invalid="true"` : "");
  const described = (field: string, hint: string) =>
    html` aria-describedby="${[hint, o.error?.field === field ? `${field}-error` : undefined].filter(Boolean).join(" ")}"`;
  return layout({
    title: "E-invoices",
    section: "e-invoices",
    viewer,
    body: html`${pageHead(
      "E-invoices",
      html`Check an e-invoice a supplier sent you by the EN 16931, XRechnung and Peppol rules, and print it readable. The same as <span class="mono">POST /api/v1/e-invoices/validate</span> and <span class="mono">/render</span>; the PDF is one of your reports.`,
    )}
${notice(o.message)}
<form method="post" action="/dashboard/e-invoices" enctype="multipart/form-data" class="panel" aria-labelledby="einvoice-title" novalidate>
  <h2 id="einvoice-title">The e-invoice</h2>
  <input type="hidden" name="_csrf" value="${viewer.csrfToken}">
  <div class="field">
    <label for="file">XML or Factur-X/ZUGFeRD PDF file</label>
    <input id="file" name="file" type="file" accept=".xml,.pdf,application/xml,text/xml,application/pdf"${described("file", "file-hint")}${invalid("file")}>
    <p id="file-hint" class="hint">UBL 2.1 Invoice or CreditNote, UN/CEFACT CII, or a PDF that embeds one (XRechnung, Peppol, Factur-X, ZUGFeRD).</p>
    ${err("file")}
  </div>
  <div class="field">
    <label for="xml">Or paste the XML</label>
    <textarea id="xml" name="xml" spellcheck="false"${described("xml", "xml-hint")}${invalid("xml")}>${i.xml}</textarea>
    <p id="xml-hint" class="hint">Used when no file is chosen.</p>
    ${err("xml")}
  </div>
  <div class="row">
    <div class="field">
      <label for="language">Language of the PDF</label>
      <select id="language" name="language">${RENDER_LANGUAGES.map((l) => html`<option value="${l}"${l === i.language ? html` selected` : ""}>${LANGUAGE_NAMES[l]}</option>`)}</select>
    </div>
    <div class="field choices"><label><input type="checkbox" name="archive" value="1"${i.archive ? html` checked` : ""}> Archive copy (PDF/A-3b with the original XML)</label></div>
  </div>
  <button class="button" type="submit">${o.canRender ? "Check and print" : "Check"}</button>
  ${o.canRender ? "" : html`<p class="hint">This key may check e-invoices but not print them (the scope e_invoices:render).</p>`}
</form>
${o.verdict ?? ""}
${o.result ?? ""}`,
  });
}
