// Reports: newest first, filtered by status, paginated, with unfinished rows refreshed live.
import { type ReportStatus, reportStatuses } from "../../db/schema";
import type { DeliveryRow } from "../../modules/destinations/repo";
import type { ReportConformance } from "../../modules/reports/model";
import type { ReportSummary } from "../../modules/reports/repo";
import { fmt, type Html, html } from "../html";
import { layout, type Viewer } from "../layout";
import { type Notice, notice, pageHead } from "./common";
import { cardTable, deleteLink } from "./table";

export const pending = (s: ReportStatus) => s === "queued" || s === "processing";

const labels: Record<ReportStatus, string> = {
  queued: "Queued",
  processing: "Processing",
  succeeded: "Succeeded",
  failed: "Failed",
  expired: "Expired",
};

export const badge = (s: ReportStatus) => html`<span class="badge ${s}">${labels[s]}</span>`;

/** What the report's PDF conforms to (its conformance column): "PDF/A-3b" and the e-invoice's summary. */
function conformance(r: ReportSummary): Html | string {
  if (!r.conformance) return "";
  const c = JSON.parse(r.conformance) as ReportConformance;
  const pdfa = c.pdfa ? html` <span class="sub">PDF/A-${c.pdfa}</span>` : "";
  const e = c.e_invoice;
  const invoice = e
    ? html`<p class="sub">E-invoice <span class="mono">${e.invoice_number}</span>, ${e.grand_total} ${e.currency} (${e.profile === "en16931" ? "EN 16931" : e.profile})</p>`
    : "";
  const sig = c.signature;
  // Signed as the last step of the run that finished the report.
  const signed = sig
    ? html`<p class="sub">${r.status === "succeeded" && r.finishedAt ? html`Signed by <strong>${sig.signer}</strong> at ${fmt.time(r.finishedAt)}` : html`To be signed by <strong>${sig.signer}</strong>`} (PAdES ${sig.level})</p>`
    : "";
  return html`${pdfa}${invoice}${signed}`;
}

const hasEInvoice = (r: ReportSummary) => !!r.conformance && (JSON.parse(r.conformance) as ReportConformance).e_invoice !== undefined;

const renderTime = (r: ReportSummary) => (r.startedAt && r.finishedAt ? r.finishedAt - r.startedAt : null);

/** A chunked report's chunks printed so far, while it renders (options.chunk): a labelled progress bar. */
function progress(r: ReportSummary): Html | string {
  if (r.status !== "processing" || r.progressTotal === null) return "";
  const done = r.progressDone ?? 0;
  const label = `Report ${r.id.slice(0, 8)}: ${done} of ${r.progressTotal} chunks printed`;
  return html`<p class="progress"><progress max="${r.progressTotal}" value="${done}" aria-label="${label}"></progress> <span class="sub">${done} of ${r.progressTotal} chunks</span></p>`;
}

/** One row; while the report is unfinished it asks to be re-fetched (app.js). */
/** `canDelete`: the signed-in key holds reports:write (without it, no Delete link that would only answer 403). */
/** Page 1 of a succeeded report, small (GET /dashboard/reports/{id}/thumbnail); nothing before it succeeded. */
function thumbnail(r: ReportSummary): Html | string {
  if (r.status !== "succeeded") return "";
  return html`<img class="thumb" src="/dashboard/reports/${r.id}/thumbnail" alt="Page 1 of report ${r.id.slice(0, 8)}" width="48" loading="lazy"> `;
}

/** Where options.deliver sends the report, and how each delivery stands (GET /reports/{id}'s deliveries). */
function deliveries(r: ReportSummary, list: readonly DeliveryRow[]): Html | string {
  if (!list.length) return "";
  const look = { pending: "queued", delivered: "succeeded", failed: "failed" } as const;
  const items = list.map(
    (d) =>
      html`<li><span class="badge ${look[d.status]}">${d.status === "pending" ? "Delivery pending" : d.status === "delivered" ? "Delivered" : "Delivery failed"}</span> <span class="mono">${d.target}</span>${
        d.attempts > 1 || d.lastError
          ? html` <span class="sub">${fmt.plural(d.attempts, "attempt")}${d.lastError ? html`: ${d.lastError}` : ""}</span>`
          : ""
      }</li>`,
  );
  return html`<ul class="deliveries" aria-label="Deliveries of report ${r.id.slice(0, 8)}">${items}</ul>`;
}

export function reportRow(r: ReportSummary, canDelete: boolean, delivered: readonly DeliveryRow[] = []): Html {
  // Refreshed while the report or one of its deliveries is unfinished.
  const live =
    pending(r.status) || delivered.some((d) => d.status === "pending") ? html` data-refresh="/dashboard/reports/${r.id}/row"` : "";
  const reason = r.errorCode ? html`<p class="reason"><span class="mono">${r.errorCode}</span>: ${r.errorMessage ?? ""}</p>` : "";
  return html`<tr id="report-${r.id}"${live} data-announce="Report ${r.id.slice(0, 8)} ${labels[r.status].toLowerCase()}">
  <td data-label="Report">${thumbnail(r)}<span class="mono">${r.id.slice(0, 8)}</span> <span class="sub">${r.engine.toUpperCase()}</span>${conformance(r)}</td>
  <td data-label="Status">${badge(r.status)}${progress(r)}${reason}${deliveries(r, delivered)}</td>
  <td data-label="Created">${fmt.time(r.createdAt)}</td>
  <td data-label="Finished">${r.finishedAt ? fmt.time(r.finishedAt) : html`<span class="sub">—</span>`}</td>
  <td data-label="Pages" class="num">${r.pageCount ?? "—"}</td>
  <td data-label="Size" class="num">${fmt.size(r.sizeBytes)}</td>
  <td data-label="Render time" class="num">${fmt.duration(renderTime(r))}</td>
  <td data-label="Actions"><div class="actions">${
    r.status === "succeeded"
      ? html`<a href="/dashboard/reports/${r.id}/download" aria-label="Download report ${r.id.slice(0, 8)}">Download</a>${
          hasEInvoice(r)
            ? html`<a href="/dashboard/reports/${r.id}/factur-x.xml" download aria-label="Download the e-invoice XML of report ${r.id.slice(0, 8)}">Invoice XML</a>`
            : ""
        }`
      : ""
  }${canDelete ? deleteLink(`/dashboard/reports/${r.id}/delete`, `report ${r.id.slice(0, 8)}`) : ""}</div></td>
</tr>`;
}

export function reportsPage(
  viewer: Viewer,
  o: {
    items: ReportSummary[];
    status?: ReportStatus;
    cursor?: string;
    nextCursor: string | null;
    message?: Notice;
    canDelete: boolean;
    /** Each report's deliveries (options.deliver), by report id. */
    deliveries?: ReadonlyMap<string, readonly DeliveryRow[]>;
  },
) {
  const q = (extra: Record<string, string | undefined>) => {
    const p = new URLSearchParams();
    for (const [k, v] of Object.entries({ status: o.status, ...extra })) if (v) p.set(k, v);
    const s = p.toString();
    return `/dashboard/reports${s ? `?${s}` : ""}`;
  };
  const filter = html`<form method="get" action="/dashboard/reports" class="row" role="search" aria-label="Filter reports">
  <div class="field">
    <label for="status">Status</label>
    <select id="status" name="status" data-autosubmit>
      <option value="">All statuses</option>
      ${reportStatuses.map((s) => html`<option value="${s}"${s === o.status ? html` selected` : ""}>${labels[s]}</option>`)}
    </select>
  </div>
  <button class="button secondary" type="submit">Filter</button>
</form>`;
  const empty = o.status
    ? html`<div class="panel empty"><h2>No ${labels[o.status].toLowerCase()} reports</h2><p>Nothing matches this filter${o.cursor ? " on this page" : ""}. <a href="/dashboard/reports">Show all reports</a>.</p></div>`
    : html`<div class="panel empty"><h2>No reports yet</h2><p>Reports you create through the API or the <a href="/dashboard/playground">Playground</a> appear here, newest first.</p></div>`;
  return layout({
    title: "Reports",
    section: "reports",
    viewer,
    body: html`${pageHead("Reports", "Newest first. Unfinished reports update by themselves.", filter)}
${notice(o.message)}
${
  o.items.length
    ? cardTable({
        caption: `Reports${o.status ? `, ${labels[o.status].toLowerCase()} only` : ""}, newest first`,
        columns: ["Report", "Status", "Created", "Finished", "Pages", "Size", "Render time"],
        rows: o.items.map((r) => reportRow(r, o.canDelete, o.deliveries?.get(r.id))),
        actions: true,
      })
    : empty
}
<nav class="pager" aria-label="Pages of reports">
  <span>${o.cursor ? html`<a href="${q({})}">← Newest</a>` : ""}</span>
  <span>${o.nextCursor ? html`<a href="${q({ cursor: o.nextCursor })}">Older reports →</a>` : ""}</span>
</nav>`,
  });
}

/** The row of a report deleted meanwhile: it stops refreshing. */
export const goneRow = (id: string) => html`<tr id="report-${id}"><td colspan="8" class="sub">This report was deleted.</td></tr>`;
