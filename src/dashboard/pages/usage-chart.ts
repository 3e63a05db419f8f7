// The Overview's usage chart: reports per day stacked by status, and pages per day, drawn as SVG on
// the server. No script runs (the strict CSP stays as it is, and the chart shows with JavaScript off),
// no library ships in the executable, and the numbers are in the HTML three ways: a text alternative
// (<title>/<desc>), a tooltip per day, and a table of every day for screen readers and copying.
import type { UsageByDay } from "../../modules/usage/repo";
import { isoDay } from "../../modules/usage/service";
import { type Html, html } from "../html";

interface Series {
  id: string;
  label: string;
  value: (d: UsageByDay) => number;
}

/** Bottom to top. The classes give the fills (app.css): each at least 3:1 against the panel (WCAG 1.4.11). */
const reportSeries: Series[] = [
  { id: "succeeded", label: "Succeeded", value: (d) => d.succeeded },
  { id: "failed", label: "Failed", value: (d) => d.failed },
  { id: "pending", label: "Queued or rendering", value: (d) => Math.max(0, d.submitted - d.succeeded - d.failed) },
];
const pageSeries: Series[] = [{ id: "pages", label: "Pages", value: (d) => d.pages }];

// Geometry in viewBox units; the SVG scales to the panel's width and scrolls sideways below MIN_WIDTH.
const W = 720;
const PAD = { left: 44, right: 12, top: 10, bottom: 26 };

const months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
/** "Nov 3" */
export function shortDay(day: number): string {
  const d = isoDay(day);
  return `${months[Number(d.slice(5, 7)) - 1]} ${Number(d.slice(8, 10))}`;
}

/** A top for the y axis at or above max whose half is a whole number too: 4, an even number to 10, then 1, 2 or 5 × 10^n. */
function niceMax(max: number): number {
  if (max <= 4) return 4;
  if (max <= 10) return max + (max % 2);
  const p = 10 ** Math.floor(Math.log10(max));
  for (const m of [1, 2, 5, 10]) if (m * p >= max) return m * p;
  return 10 * p;
}

const compact = (n: number) =>
  n >= 10_000 ? `${Math.round(n / 1000)}k` : n >= 1000 ? `${(n / 1000).toFixed(1).replace(/\.0$/, "")}k` : String(n);

function bars(o: { id: string; title: string; desc: string; days: UsageByDay[]; series: Series[]; height: number }): Html {
  const plotH = o.height - PAD.top - PAD.bottom;
  const plotW = W - PAD.left - PAD.right;
  const top = niceMax(Math.max(0, ...o.days.map((d) => o.series.reduce((n, s) => n + s.value(d), 0))));
  const y = (v: number) => PAD.top + plotH - (v / top) * plotH;
  const slot = plotW / o.days.length;
  const barW = Math.max(2, slot * 0.7);
  const ticks = [0, top / 2, top];
  const grid = ticks.map(
    (v) =>
      html`<line class="grid" x1="${PAD.left}" x2="${W - PAD.right}" y1="${y(v)}" y2="${y(v)}"/><text class="axis" x="${PAD.left - 6}" y="${y(v) + 4}" text-anchor="end">${compact(v)}</text>`,
  );
  // A date under the first bar, every 7th and the last, so labels never collide at 30 days.
  const labelled = (i: number) => i === o.days.length - 1 || (i % 7 === 0 && o.days.length - 1 - i >= 4);
  const columns = o.days.map((d, i) => {
    const x = PAD.left + i * slot + (slot - barW) / 2;
    let base = 0;
    const segments = o.series.map((s) => {
      const v = s.value(d);
      const from = base;
      base += v;
      return v > 0
        ? html`<rect class="bar ${s.id}" x="${x.toFixed(1)}" y="${y(base).toFixed(1)}" width="${barW.toFixed(1)}" height="${(y(from) - y(base)).toFixed(1)}" data-series="${s.id}" data-value="${v}"/>`
        : "";
    });
    const tip = `${shortDay(d.day)}: ${o.series.map((s) => `${s.value(d)} ${s.label.toLowerCase()}`).join(", ")}`;
    const label = labelled(i)
      ? html`<text class="axis" x="${(x + barW / 2).toFixed(1)}" y="${o.height - 8}" text-anchor="middle">${shortDay(d.day)}</text>`
      : "";
    return html`<g data-date="${isoDay(d.day)}"><title>${tip}</title>${segments}</g>${label}`;
  });
  return html`<svg id="${o.id}-svg" class="chart" viewBox="0 0 ${W} ${o.height}" role="img" aria-labelledby="${o.id}-title ${o.id}-desc" focusable="false">
<title id="${o.id}-title">${o.title}</title>
<desc id="${o.id}-desc">${o.desc}</desc>
${grid}${columns}
<line class="baseline" x1="${PAD.left}" x2="${W - PAD.right}" y1="${y(0)}" y2="${y(0)}"/>
</svg>`;
}

function legend(series: Series[]): Html {
  return html`<ul class="legend">${series.map((s) => html`<li><span class="swatch ${s.id}" aria-hidden="true"></span>${s.label}</li>`)}</ul>`;
}

/** The chart panel for the days given (oldest first): two charts, a legend and the table of numbers. */
export function usageChart(days: UsageByDay[]): Html {
  const total = (f: (d: UsageByDay) => number) => days.reduce((n, d) => n + f(d), 0);
  const submitted = total((d) => d.submitted);
  const range = `${shortDay(days[0]!.day)} to ${shortDay(days.at(-1)!.day)}`;
  const busiest = days.reduce((a, d) => (d.submitted > a.submitted ? d : a), days[0]!);
  const summary =
    `${days.length} days from ${range} (UTC): ${submitted} reports submitted, ${total((d) => d.succeeded)} succeeded, ` +
    `${total((d) => d.failed)} failed, ${total((d) => d.pages)} pages.` +
    (submitted > 0 ? ` Busiest day: ${shortDay(busiest.day)} with ${busiest.submitted} reports.` : "");
  const rows = days.map(
    (d) =>
      html`<tr><th scope="row">${isoDay(d.day)}</th>${reportSeries.map((s) => html`<td class="num">${s.value(d)}</td>`)}<td class="num">${d.pages}</td></tr>`,
  );
  return html`<section class="panel usage" aria-labelledby="usage-title">
  <h2 id="usage-title">Reports per day</h2>
  <p class="sub">${summary} Days are UTC; a report counts on the day it was submitted. Per key: <a href="/dashboard/keys">Access Keys</a>.</p>
  ${legend(reportSeries)}
  <div class="chart-wrap" tabindex="0" aria-label="Reports per day, scrollable">${bars({ id: "chart-reports", title: `Reports per day, ${range}, by status`, desc: summary, days, series: reportSeries, height: 220 })}</div>
  <h3 class="chart-head">Pages per day</h3>
  <div class="chart-wrap" tabindex="0" aria-label="Pages per day, scrollable">${bars({ id: "chart-pages", title: `Pages per day, ${range}`, desc: `${total((d) => d.pages)} pages rendered from ${range}.`, days, series: pageSeries, height: 140 })}</div>
  <details>
    <summary>Show the numbers</summary>
    <div class="table-wrap" tabindex="0" aria-label="Reports and pages per day, scrollable"><table class="usage-table">
      <caption class="visually-hidden">Reports and pages per day, ${range}</caption>
      <thead><tr><th scope="col">Day (UTC)</th>${reportSeries.map((s) => html`<th scope="col">${s.label}</th>`)}<th scope="col">Pages</th></tr></thead>
      <tbody>${rows}</tbody>
    </table></div>
  </details>
</section>`;
}
