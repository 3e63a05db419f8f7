// Playground: a template and its data go through the same submission as the API; the result is
// shown in the page, the PDF in a frame served from the dashboard's own origin (/files).
import type { Engine } from "../../db/schema";
import type { ReportSummary } from "../../modules/reports/repo";
import { type PaperFormat, paperFormats } from "../../pdf/options";
import { fmt, type Html, html } from "../html";
import { layout, type Viewer } from "../layout";
import { type Notice, notice, pageHead } from "./common";
import { badge, pending } from "./reports";

export interface PlaygroundInput {
  engine: Engine;
  template: string;
  data: string;
  format: PaperFormat;
  landscape: boolean;
}

export const exampleInput: PlaygroundInput = {
  engine: "ejs",
  format: "A4",
  landscape: false,
  template: `<style>
  body { font-family: sans-serif; margin: 2cm; color: #1c2330; }
  h1 { color: #3b4fd8; }
  table { width: 100%; border-collapse: collapse; }
  td, th { border-bottom: 1px solid #ddd; padding: 6px; text-align: left; }
</style>
<h1>Invoice <%= number %></h1>
<p>Bill to: <%= customer %></p>
<table>
  <tr><th>Item</th><th>Amount</th></tr>
  <% items.forEach(function (i) { %>
  <tr><td><%= i.name %></td><td><%= i.amount.toFixed(2) %></td></tr>
  <% }) %>
</table>`,
  data: JSON.stringify(
    {
      number: 42,
      customer: "Ada Lovelace",
      items: [
        { name: "Analytical engine", amount: 1200 },
        { name: "Punch cards", amount: 35.5 },
      ],
    },
    null,
    2,
  ),
};

/** The result panel; while the report is unfinished it asks to be re-fetched (app.js). */
export function resultPanel(r: ReportSummary, pdfUrl?: string): Html {
  const short = r.id.slice(0, 8);
  if (pending(r.status)) {
    return html`<section class="panel result" id="result" data-refresh="/dashboard/playground/result/${r.id}" aria-labelledby="result-title" aria-busy="true">
  <h2 id="result-title">Result</h2>
  <p><span class="spinner" aria-hidden="true"></span> Report <span class="mono">${short}</span> is ${r.status}… ${badge(r.status)}</p>
  <p class="sub">This updates by itself. Without JavaScript, follow it on the <a href="/dashboard/reports">Reports</a> page.</p>
</section>`;
  }
  if (r.status === "failed") {
    return html`<section class="panel result" id="result" aria-labelledby="result-title" data-announce="The template failed">
  <h2 id="result-title">Result</h2>
  <div class="notice error" role="alert"><p><strong>The report failed</strong> (<span class="mono">${r.errorCode}</span>)</p><p class="mono" id="failure-reason">${r.errorMessage ?? ""}</p></div>
  <p class="sub">Fix the template or data above and render again.</p>
</section>`;
  }
  if (r.status === "succeeded" && pdfUrl) {
    return html`<section class="panel result" id="result" aria-labelledby="result-title" data-announce="The PDF is ready">
  <h2 id="result-title">Result</h2>
  <p class="actions">${badge(r.status)} <span>${fmt.plural(r.pageCount ?? 0, "page")}, ${fmt.size(r.sizeBytes)}, rendered in ${fmt.duration(r.finishedAt && r.startedAt ? r.finishedAt - r.startedAt : null)}</span>
  <a class="button secondary small" href="/dashboard/reports/${r.id}/download">Open the PDF</a></p>
  <iframe class="preview" src="${pdfUrl}" title="PDF of report ${short}"></iframe>
</section>`;
  }
  return html`<section class="panel result" id="result" aria-labelledby="result-title">
  <h2 id="result-title">Result</h2>
  <p>${badge(r.status)} The PDF of report <span class="mono">${short}</span> is no longer stored.</p>
</section>`;
}

export function playgroundPage(
  viewer: Viewer,
  o: { input: PlaygroundInput; errors?: { template?: string; data?: string }; message?: Notice; result?: Html; templateMaxLength: number },
) {
  const i = o.input;
  const e = o.errors ?? {};
  return layout({
    title: "Playground",
    section: "playground",
    viewer,
    body: html`${pageHead("Playground", "Try a template: it goes through the same queue, limits and EJS sandbox as the API, and counts as one of your reports.")}
${notice(o.message)}
<form method="post" action="/dashboard/playground" class="panel" aria-labelledby="editor-title" novalidate>
  <h2 id="editor-title" class="visually-hidden">Template and data</h2>
  <input type="hidden" name="_csrf" value="${viewer.csrfToken}">
  <div class="row">
    <fieldset class="field">
      <legend>Engine</legend>
      <div class="choices">
        <label><input type="radio" name="engine" value="ejs"${i.engine === "ejs" ? html` checked` : ""}> EJS (template + data)</label>
        <label><input type="radio" name="engine" value="raw"${i.engine === "raw" ? html` checked` : ""}> Raw HTML</label>
      </div>
    </fieldset>
    <div class="field">
      <label for="format">Paper</label>
      <select id="format" name="format">${paperFormats.map((f) => html`<option${f === i.format ? html` selected` : ""}>${f}</option>`)}</select>
    </div>
    <div class="field choices"><label><input type="checkbox" name="landscape" value="1"${i.landscape ? html` checked` : ""}> Landscape</label></div>
  </div>
  <div class="two">
    <div class="field">
      <label for="template">Template</label>
      <textarea id="template" name="template" required maxlength="${o.templateMaxLength}" spellcheck="false" aria-describedby="template-hint${e.template ? " template-error" : ""}"${e.template ? html` aria-invalid="true"` : ""}>${i.template}</textarea>
      <p id="template-hint" class="hint">HTML; with EJS it may use tags such as <code>&lt;%= name %&gt;</code>.</p>
      ${e.template ? html`<p id="template-error" class="field-error">${e.template}</p>` : ""}
    </div>
    <div class="field">
      <label for="data">Data (JSON object)</label>
      <textarea id="data" name="data" spellcheck="false" aria-describedby="data-error"${e.data ? html` aria-invalid="true"` : ""}>${i.data}</textarea>
      <p id="data-error" class="field-error" aria-live="polite">${e.data ?? ""}</p>
    </div>
  </div>
  <button class="button" id="render" type="submit">Render PDF</button>
</form>
${o.result ?? ""}`,
  });
}
