// Overview: the account's reports by status, reports and pages per day (chart), the service's queue and
// health, recent render times.
import type { ReportStatus } from "../../db/schema";
import { median } from "../../lib/stats";
import type { UsageByDay } from "../../modules/usage/repo";
import { fmt, html } from "../html";
import { layout, type Viewer } from "../layout";
import { pageHead } from "./common";
import { cardTable } from "./table";
import { usageChart } from "./usage-chart";

export interface OverviewData {
  counts: Partial<Record<ReportStatus, number>>;
  recent: { id: string; startedAt: number; finishedAt: number; pageCount: number | null }[];
  version: string;
  healthy: boolean;
  queued: number;
  rendering: number;
  origin: string;
  /** The last 30 days, oldest first (days without reports as zeros). */
  usage: UsageByDay[];
}

const statuses: { id: ReportStatus; label: string }[] = [
  { id: "queued", label: "Queued" },
  { id: "processing", label: "Processing" },
  { id: "succeeded", label: "Succeeded" },
  { id: "failed", label: "Failed" },
  { id: "expired", label: "Expired" },
];

export function overviewPage(viewer: Viewer, d: OverviewData) {
  const times = d.recent.map((r) => r.finishedAt - r.startedAt);
  const recent = d.recent.length
    ? html`<p>Median <strong>${fmt.duration(median(times))}</strong>, slowest <strong>${fmt.duration(Math.max(...times))}</strong> over the last ${fmt.plural(times.length, "report")}.</p>
${cardTable({
  caption: "Render times of the latest reports",
  columns: ["Finished", "Pages", "Render time"],
  rows: d.recent.map(
    (r) =>
      html`<tr><td data-label="Finished">${fmt.time(r.finishedAt)}</td><td data-label="Pages" class="num">${r.pageCount ?? "—"}</td><td data-label="Render time" class="num">${fmt.duration(r.finishedAt - r.startedAt)}</td></tr>`,
  ),
})}`
    : html`<div class="empty"><h3>No renders yet</h3><p>Render times appear here once reports finish. Try the <a href="/dashboard/playground">Playground</a>.</p></div>`;

  // The curl example scrolls sideways on a phone: tabindex lets the keyboard scroll it, and the
  // focusable region is named so a screen reader says what it is (axe: scrollable-region-focusable).
  return layout({
    title: "Overview",
    section: "overview",
    viewer,
    body: html`${pageHead("Overview", html`Account <strong>${viewer.accountName}</strong>`, html`<a class="button" href="/dashboard/playground">Try a template</a>`)}
<section aria-labelledby="counts-title">
  <h2 id="counts-title">Your reports</h2>
  <dl class="grid">${statuses.map((s) => html`<div class="stat"><dt><a href="/dashboard/reports?status=${s.id}">${s.label}</a></dt><dd>${d.counts[s.id] ?? 0}</dd></div>`)}</dl>
</section>
${usageChart(d.usage)}
<div class="two">
  <section class="panel" aria-labelledby="service-title">
    <h2 id="service-title">Service</h2>
    <dl class="kv">
      <dt>Health</dt><dd>${d.healthy ? html`<span class="badge succeeded">Healthy</span>` : html`<span class="badge queued">Renderer starting</span>`}</dd>
      <dt>Queue depth</dt><dd>${fmt.plural(d.queued, "report")} waiting, ${d.rendering} rendering</dd>
      <dt>Version</dt><dd class="mono">${d.version}</dd>
      <dt>API</dt><dd><a href="/api/v1/docs">API documentation</a> · <a href="/api/v1/openapi.json">OpenAPI document</a></dd>
    </dl>
  </section>
  <section class="panel" aria-labelledby="recent-title">
    <h2 id="recent-title">Recent render times</h2>
    ${recent}
  </section>
</div>
<section class="panel" aria-labelledby="api-title">
  <h2 id="api-title">Call the API</h2>
  <p>Create a key in <a href="/dashboard/keys">Access Keys</a>, then queue a PDF:</p>
  <pre tabindex="0" role="region" aria-label="Example request with curl"><code>curl -s -H "X-API-Key: $KEY" -H 'Content-Type: application/json' \\
  ${d.origin}/api/v1/generate-pdf-async \\
  -d '{"engine":"ejs","html_template":"&lt;h1&gt;Hello &lt;%= name %&gt;&lt;/h1&gt;","data":{"name":"Ada"}}'</code></pre>
</section>`,
  });
}
