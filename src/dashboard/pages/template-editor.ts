// One template: its editors (template, sample data, schema, options), the live preview with preflight
// warnings, "save as new version", version history with diffs, and the curl line that renders it by id.
// Without JavaScript the editors are textareas and "Preview PDF" opens the PDF; editor.bundle.js adds
// CodeMirror and the preview as you type.
import { assets } from "../assets";
import { fmt, type Html, html } from "../html";
import { layout, type Viewer } from "../layout";
import { type Notice, notice, pageHead } from "./common";
import { type GoldenView, goldenPanel } from "./template-golden";

export interface EditorInput {
  name: string;
  engine: "ejs" | "raw";
  htmlTemplate: string;
  sampleData: string;
  dataSchema: string;
  options: string;
}

export type EditorField = "name" | "html_template" | "sample_data" | "data_schema" | "options";

export interface StoredTemplate {
  id: string;
  name: string;
  engine: "ejs" | "raw";
  latest: number;
  /** The version whose content the editors opened with. */
  editing: number;
  versions: { version: number; createdAt: number }[];
  /** Its golden samples and the last comparison of the version opened. */
  golden?: Omit<GoldenView, "csrfToken">;
}

/** The line that renders a stored template through the API, with its sample data. */
export function curlLine(origin: string, templateId: string, sampleData: string): string {
  let data: unknown = {};
  try {
    data = JSON.parse(sampleData || "{}");
  } catch {}
  const body = JSON.stringify({ template_id: templateId, data });
  const quoted = `'${body.replaceAll("'", "'\\''")}'`;
  return `curl -X POST ${origin}/api/v1/generate-pdf-async -H 'X-API-Key: YOUR_KEY' -H 'Content-Type: application/json' -d ${quoted}`;
}

function editorField(o: {
  name: EditorField;
  label: string;
  hint: Html | string;
  value: string;
  kind: "html" | "json";
  error?: string;
  maxLength?: number;
}): Html {
  const describedBy = `${o.name}-hint${o.error ? ` ${o.name}-error` : ""}`;
  return html`<div class="field editor-field">
  <label for="${o.name}">${o.label}</label>
  <textarea id="${o.name}" name="${o.name}" class="code" data-editor="${o.kind}" spellcheck="false"${o.maxLength ? html` maxlength="${o.maxLength}"` : ""} aria-describedby="${describedBy}"${o.error ? html` aria-invalid="true"` : ""}>${o.value}</textarea>
  <p id="${o.name}-hint" class="hint">${o.hint}</p>
  ${o.error ? html`<p id="${o.name}-error" class="field-error">${o.error}</p>` : ""}
</div>`;
}

function historyPanel(t: StoredTemplate): Html {
  const newest = [...t.versions].sort((a, b) => b.version - a.version);
  const pick = (name: string, label: string, selected: number) => html`<div class="field">
    <label for="${name}">${label}</label>
    <select id="${name}" name="${name}">${newest.map((v) => html`<option value="${v.version}"${v.version === selected ? html` selected` : ""}>Version ${v.version}</option>`)}</select>
  </div>`;
  return html`<section class="panel" aria-labelledby="history-title">
  <h2 id="history-title">Version history</h2>
  <ul class="versions">${newest.map(
    (v) =>
      html`<li${v.version === t.editing ? html` aria-current="true"` : ""}><a href="/dashboard/templates/${t.id}?version=${v.version}">Version ${v.version}</a>${v.version === t.latest ? html` <span class="badge current">Latest</span>` : ""} ${fmt.time(v.createdAt)}</li>`,
  )}</ul>
  ${
    newest.length > 1
      ? html`<form method="get" action="/dashboard/templates/${t.id}/diff" class="row" aria-label="Compare two versions">
  ${pick("from", "From", newest[1]!.version)}
  ${pick("to", "To", newest[0]!.version)}
  <button class="button secondary" type="submit">Show the diff</button>
</form>`
      : html`<p class="sub">Save a new version to compare it with this one.</p>`
  }
</section>`;
}

export function templateEditorPage(
  viewer: Viewer,
  o: {
    input: EditorInput;
    stored?: StoredTemplate;
    origin: string;
    templateMaxLength: number;
    errors?: Partial<Record<EditorField, string>>;
    message?: Notice;
  },
): Html {
  const i = o.input;
  const t = o.stored;
  const e = o.errors ?? {};
  const action = t ? `/dashboard/templates/${t.id}/versions` : "/dashboard/templates";
  const lead = t
    ? html`<span class="mono">${t.id}</span> · ${t.engine.toUpperCase()} · latest version ${t.latest}${
        t.editing !== t.latest ? html` · <strong>editing from version ${t.editing}</strong>: saving makes it version ${t.latest + 1}` : ""
      }`
    : "Write the template, its sample data and, if you like, a JSON Schema the data must match. The preview renders as you type.";
  const curl = t ? curlLine(o.origin, t.id, i.sampleData) : "";
  return layout({
    title: t ? t.name : "New template",
    section: "templates",
    viewer,
    scripts: [assets.editor.url],
    body: html`${pageHead(t ? t.name : "New template", lead, t ? html`<a class="button secondary" href="/dashboard/templates/${t.id}/delete">Delete template</a>` : "")}
${notice(o.message)}
<div class="template-layout">
<form method="post" action="${action}" class="panel template-form" data-template-form aria-labelledby="form-title" novalidate>
  <h2 id="form-title" class="visually-hidden">Template</h2>
  <input type="hidden" name="_csrf" value="${viewer.csrfToken}">
  ${
    t
      ? html`<input type="hidden" name="engine" value="${t.engine}">`
      : html`<div class="row">
    <div class="field grow">
      <label for="name">Name</label>
      <input id="name" name="name" type="text" required maxlength="200" value="${i.name}" placeholder="e.g. invoice" aria-describedby="name-hint${e.name ? " name-error" : ""}"${e.name ? html` aria-invalid="true"` : ""}>
      <p id="name-hint" class="hint">How you will recognise it in this list.</p>
      ${e.name ? html`<p id="name-error" class="field-error">${e.name}</p>` : ""}
    </div>
    <fieldset class="field">
      <legend>Engine</legend>
      <div class="choices">
        <label><input type="radio" name="engine" value="ejs"${i.engine === "ejs" ? html` checked` : ""}> EJS</label>
        <label><input type="radio" name="engine" value="raw"${i.engine === "raw" ? html` checked` : ""}> Raw HTML</label>
      </div>
    </fieldset>
  </div>`
  }
  ${editorField({
    name: "html_template",
    label: "Template",
    kind: "html",
    value: i.htmlTemplate,
    error: e.html_template,
    maxLength: o.templateMaxLength,
    hint: html`HTML; with EJS it may use tags such as <code>&lt;%= customer %&gt;</code>. In the editor, Tab indents: press Escape, then Tab, to move on.`,
  })}
  <div class="two">
    ${editorField({ name: "sample_data", label: "Sample data (JSON)", kind: "json", value: i.sampleData, error: e.sample_data, hint: "What the preview renders with; stored with the version." })}
    ${editorField({ name: "data_schema", label: "Data schema (JSON Schema, optional)", kind: "json", value: i.dataSchema, error: e.data_schema, hint: "Draft 2020-12. Data sent to render this template must match it, or the request gets 422." })}
  </div>
  ${editorField({ name: "options", label: "Default options (JSON)", kind: "json", value: i.options, error: e.options, hint: html`The PDF options of <span class="mono">generate-pdf-async</span>, such as <code>{"format": "A4", "landscape": true}</code>; a request's own options override them field by field.` })}
  <div class="actions">
    <button class="button" type="submit">${t ? "Save as new version" : "Create template"}</button>
    <button class="button secondary" type="submit" formaction="/dashboard/templates/preview" formtarget="_blank" data-without-script>Preview PDF</button>
  </div>
</form>
<section class="panel preview-panel" data-preview="/dashboard/templates/preview" aria-labelledby="preview-title">
  <h2 id="preview-title">Preview</h2>
  <p class="preview-status" data-preview-status role="status">The preview renders as you type (it needs JavaScript; without it, use Preview PDF). Previews are not reports: they do not appear in your list.</p>
  <ul class="warnings" data-preview-warnings aria-label="Preflight warnings" hidden></ul>
  <iframe class="preview" title="Preview of the PDF"></iframe>
</section>
</div>
${
  t
    ? html`<section class="panel" aria-labelledby="curl-title">
  <h2 id="curl-title">Render it by id</h2>
  <p>Your services send only the data; the latest version is used unless the request names <span class="mono">template_version</span>.</p>
  <div class="secret">
    <label class="visually-hidden" for="curl">Command that renders this template</label>
    <textarea id="curl" class="mono curl" readonly rows="3" spellcheck="false">${curl}</textarea>
    <button class="button" type="button" data-copy="curl">Copy</button>
  </div>
</section>
${t.golden ? goldenPanel(t.id, { ...t.golden, csrfToken: viewer.csrfToken }) : ""}
${historyPanel(t)}`
    : ""
}`,
  });
}
