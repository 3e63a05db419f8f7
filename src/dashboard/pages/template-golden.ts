// The golden samples of a template's version on its page: the last comparison of the version shown
// (with the one before it), each changed page before and after side by side, a toggle that lays the diff
// picture (changed pixels in red) over the new page, and the Approve button while approval is due.
// The toggle is a checkbox and CSS: it works without JavaScript and reads as a checkbox to a screen reader.
import type { ComparisonJson, PageJson } from "../../modules/templates/golden";
import { type Html, html } from "../html";

export interface GoldenView {
  /** The last comparison of the version on the page, if it was ever compared. */
  comparison?: ComparisonJson;
  samples: number;
  requireApproval: boolean;
  defaultVersion: number;
  version: number;
  csrfToken: string;
}

/** An API picture link as the dashboard serves it (the session, not a key, authorises it). */
const picture = (link: string) => link.replace(/^\/api\/v1\/templates\//, "/dashboard/templates/");

function changedPage(sample: string, p: PageJson, c: ComparisonJson, n: number): Html {
  const id = `overlay-${n}`;
  const side = (label: string, src: string | null, alt: string) =>
    html`<figure class="golden-side"><figcaption>${label}</figcaption>${
      src ? html`<img src="${picture(src)}" alt="${alt}">` : html`<p class="golden-none">No page ${p.page}</p>`
    }</figure>`;
  return html`<li class="golden-page">
  <h4>Page ${p.page} <span class="sub">${(p.changed_ratio * 100).toFixed(2)} % of pixels changed</span></h4>
  <div class="golden-pair">
    ${side(`Before: version ${c.base}`, p.before, `Page ${p.page} of sample ${sample} with version ${c.base}`)}
    <figure class="golden-side golden-after">
      <figcaption>After: version ${c.version}</figcaption>
      ${
        p.diff
          ? html`<input type="checkbox" id="${id}" class="golden-toggle" checked>
      <label for="${id}" class="golden-toggle-label">Highlight the changed pixels</label>`
          : ""
      }
      <div class="golden-stack">
        ${p.after ? html`<img src="${picture(p.after)}" alt="Page ${p.page} of sample ${sample} with version ${c.version}">` : html`<p class="golden-none">No page ${p.page}</p>`}
        ${p.diff ? html`<img class="golden-diff" src="${picture(p.diff)}" alt="Page ${p.page} of sample ${sample}: the changed pixels in red">` : ""}
      </div>
    </figure>
  </div>
</li>`;
}

export function goldenPanel(templateId: string, g: GoldenView): Html {
  const c = g.comparison;
  const approve =
    g.requireApproval && g.version !== g.defaultVersion
      ? html`<form method="post" action="/dashboard/templates/${templateId}/versions/${g.version}/approve" class="row">
  <input type="hidden" name="_csrf" value="${g.csrfToken}">
  <p>Version ${g.version} is not in use: reports that name no version get version ${g.defaultVersion} until it is approved.</p>
  <button class="button" type="submit">Approve version ${g.version}</button>
</form>`
      : "";
  let body: Html;
  if (!g.samples)
    body = html`<p class="sub">No golden samples yet: add some with <span class="mono">POST /api/v1/templates/${templateId}/samples</span>, and every new version is compared with them.</p>`;
  else if (!c)
    body = html`<p class="sub">Version ${g.version} was not compared with the samples (it is version 1, or no renderer ran when it was saved).</p>`;
  else {
    let n = 0;
    const changed = c.samples.filter((s) => s.error || s.pages.some((p) => p.diff));
    body = html`<p>Version ${c.version} against version ${c.base} on ${c.samples.length} sample${c.samples.length === 1 ? "" : "s"}:
  <strong>${c.status === "same" ? "the same on every page" : `${changed.length} changed`}</strong>.</p>
${changed.map(
  (s) => html`<section class="golden-sample" aria-label="Sample ${s.name}">
  <h3>Sample <span class="mono">${s.name}</span> <span class="sub">${s.pages_before} page${s.pages_before === 1 ? "" : "s"} before, ${s.pages_after} after</span></h3>
  ${s.error ? html`<p class="field-error">Version ${s.error.version} failed to render it: ${s.error.code}: ${s.error.message}</p>` : ""}
  <ul class="golden-pages">${s.pages.filter((p) => p.diff).map((p) => changedPage(s.name, p, c, n++))}</ul>
</section>`,
)}`;
  }
  return html`<section class="panel golden" aria-labelledby="golden-title">
  <h2 id="golden-title">Golden samples <span class="sub">${g.requireApproval ? "changed versions need approval" : "compared on every save"}</span></h2>
  ${approve}
  ${body}
</section>`;
}
