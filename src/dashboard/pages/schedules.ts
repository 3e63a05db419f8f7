// Schedules: the account's schedules (stored templates rendered on a cron schedule) with their next tick
// and state, a form to create one, pause/resume and delete per row, and each schedule's runs. The same
// service and checks as /api/v1/schedules.
import type { RunRow, ScheduleRow } from "../../modules/schedules/repo";
import { fmt, type Html, html } from "../html";
import { layout, type Viewer } from "../layout";
import { type Notice, notice, pageHead } from "./common";
import { cardTable, deleteLink, emptyPanel, pagedTable } from "./table";

export interface ScheduleForm {
  name?: string;
  cron?: string;
  timezone?: string;
  template_id?: string;
  data?: string;
  catch_up?: string;
}

export type ScheduleField = "name" | "cron" | "timezone" | "template_id" | "data";

const state = (s: ScheduleRow) =>
  s.paused ? html`<span class="badge queued">Paused</span>` : html`<span class="badge succeeded">Active</span>`;

function toggle(viewer: Viewer, s: ScheduleRow): Html {
  const to = s.paused ? "resume" : "pause";
  return html`<form method="post" action="/dashboard/schedules/${s.id}/${to}" class="inline">
  <input type="hidden" name="_csrf" value="${viewer.csrfToken}">
  <button class="button secondary small" type="submit" aria-label="${s.paused ? "Resume" : "Pause"} schedule ${s.name}">${s.paused ? "Resume" : "Pause"}</button>
</form>`;
}

export function schedulesPage(
  viewer: Viewer,
  o: {
    schedules: ScheduleRow[];
    templates: { id: string; name: string }[];
    templateNames: Map<string, string>;
    message?: Notice;
    error?: { field: ScheduleField; text: string };
    form?: ScheduleForm;
  },
) {
  const f = o.form ?? {};
  // Not "data": the playground's script takes the element with that id for its own.
  const idOf = (field: ScheduleField) => (field === "data" ? "schedule-data" : field);
  const err = (field: ScheduleField) =>
    o.error?.field === field ? html`<p id="${idOf(field)}-error" class="field-error">${o.error.text}</p>` : "";
  const aria = (field: ScheduleField, hint?: string) => {
    const ids = [hint, o.error?.field === field ? `${idOf(field)}-error` : undefined].filter(Boolean).join(" ");
    return html`${ids ? html` aria-describedby="${ids}"` : ""}${o.error?.field === field ? html` aria-invalid="true"` : ""}`;
  };
  const rows = o.schedules.map(
    (s) => html`<tr>
  <td data-label="Name"><a href="/dashboard/schedules/${s.id}"><strong>${s.name}</strong></a> <span class="sub block">created ${fmt.time(s.createdAt)}</span></td>
  <td data-label="When"><span class="mono">${s.cron}</span><span class="sub block">${s.timezone} · catch-up ${s.catchUp}</span></td>
  <td data-label="Template">${o.templateNames.get(s.templateId) ?? html`<span class="sub">deleted</span>`}${s.templateVersion ? html` <span class="sub">v${s.templateVersion}</span>` : ""}</td>
  <td data-label="Next run">${s.paused ? html`<span class="sub">paused</span>` : fmt.time(s.nextRunAt)}</td>
  <td data-label="State">${state(s)}</td>
  <td data-label="Actions"><a href="/dashboard/schedules/${s.id}" aria-label="Runs of schedule ${s.name}">Runs</a> ${toggle(viewer, s)} ${deleteLink(`/dashboard/schedules/${s.id}/delete`, `schedule ${s.name}`)}</td>
</tr>`,
  );
  const form = o.templates.length
    ? html`<form method="post" action="/dashboard/schedules" novalidate>
    <input type="hidden" name="_csrf" value="${viewer.csrfToken}">
    <div class="field">
      <label for="name">Name</label>
      <input id="name" name="name" type="text" required maxlength="200" value="${f.name ?? ""}" placeholder="e.g. daily statements"${aria("name")}>
      ${err("name")}
    </div>
    <div class="field">
      <label for="template_id">Template</label>
      <select id="template_id" name="template_id"${aria("template_id")}>${o.templates.map((t) => html`<option value="${t.id}"${t.id === f.template_id ? html` selected` : ""}>${t.name}</option>`)}</select>
      ${err("template_id")}
    </div>
    <div class="field">
      <label for="cron">Cron expression</label>
      <input id="cron" name="cron" type="text" required maxlength="200" class="mono" value="${f.cron ?? "0 6 * * *"}"${aria("cron", "cron-hint")}>
      <p id="cron-hint" class="hint">minute hour day-of-month month day-of-week: "0 6 * * *" is 06:00 daily, "0 6 * * 1-5" weekdays.</p>
      ${err("cron")}
    </div>
    <div class="field">
      <label for="timezone">Time zone</label>
      <input id="timezone" name="timezone" type="text" required maxlength="100" value="${f.timezone ?? "UTC"}"${aria("timezone", "timezone-hint")}>
      <p id="timezone-hint" class="hint">An IANA name, such as Europe/Berlin or America/New_York.</p>
      ${err("timezone")}
    </div>
    <div class="field">
      <label for="schedule-data">Data (JSON object)</label>
      <textarea id="schedule-data" name="data" spellcheck="false" class="mono"${aria("data")}>${f.data ?? "{}"}</textarea>
      ${err("data")}
    </div>
    <div class="field">
      <label for="catch_up">Ticks missed while the service was down</label>
      <select id="catch_up" name="catch_up">
        <option value="none"${f.catch_up !== "last" ? html` selected` : ""}>Skip them</option>
        <option value="last"${f.catch_up === "last" ? html` selected` : ""}>Run the latest one once</option>
      </select>
    </div>
    <button class="button" type="submit">Create schedule</button>
  </form>`
    : emptyPanel("No templates yet", html`A schedule renders a stored template: <a href="/dashboard/templates/new">create one</a> first.`);
  return layout({
    title: "Schedules",
    section: "schedules",
    viewer,
    body: html`${pageHead("Schedules", "Stored templates rendered on a cron schedule: each tick queues one report, once, whatever the number of instances.")}
${notice(o.message)}
<section class="panel" aria-labelledby="create-title">
  <h2 id="create-title">Create a schedule</h2>
  ${form}
</section>
<section aria-labelledby="list-title">
  <h2 id="list-title">Schedules of this account</h2>
  ${
    o.schedules.length
      ? cardTable({
          caption: "Schedules: name, cron expression and time zone, template, next run, state",
          columns: ["Name", "When", "Template", "Next run", "State"],
          rows,
          actions: true,
        })
      : emptyPanel("No schedules", "Create one above, or with POST /api/v1/schedules.")
  }
</section>`,
  });
}

const runStatus = (r: RunRow) =>
  r.status === "failed"
    ? html`<span class="badge failed">Failed</span>`
    : r.status === "running"
      ? html`<span class="badge processing">Running</span>`
      : html`<span class="badge succeeded">Queued</span>`;

export function scheduleRunsPage(viewer: Viewer, o: { schedule: ScheduleRow; runs: RunRow[]; cursor?: string; nextCursor?: string }) {
  const s = o.schedule;
  const rows = o.runs.map(
    (r) => html`<tr>
  <td data-label="Tick">${fmt.time(r.scheduledFor)}${r.caughtUp ? html` <span class="sub block">caught up after an outage</span>` : ""}</td>
  <td data-label="Run">${runStatus(r)}</td>
  <td data-label="Report">${r.reportId ? html`<span class="mono">${r.reportId}</span> <span class="sub block">${r.reportStatus ?? ""}${r.reportStatus === "succeeded" ? html` · <a href="/dashboard/reports/${r.reportId}/download" aria-label="PDF of the report of the run at ${new Date(r.scheduledFor).toISOString()}">PDF</a>` : ""}</span>` : html`<span class="sub">none</span>`}</td>
  <td data-label="Error">${r.error ?? ""}${r.webhookStatus ? html`<span class="sub block">schedule.run_failed event: ${r.webhookStatus}</span>` : ""}</td>
</tr>`,
  );
  return layout({
    title: `Runs of ${s.name}`,
    section: "schedules",
    viewer,
    body: html`${pageHead(`Runs of ${s.name}`, html`<span class="mono">${s.cron}</span> in ${s.timezone}; ${s.paused ? "paused" : html`next run ${fmt.time(s.nextRunAt)}`}. Newest first.`, html`<p><a href="/dashboard/schedules">All schedules</a></p>`)}
<section aria-labelledby="runs-title">
  <h2 id="runs-title">Runs</h2>
  ${pagedTable(
    { caption: "Runs: tick, outcome, report and its status, error", columns: ["Tick", "Run", "Report", "Error"], rows },
    {
      base: `/dashboard/schedules/${s.id}`,
      noun: "runs",
      cursor: o.cursor,
      nextCursor: o.nextCursor,
      empty: "The first run appears at the next tick.",
    },
  )}
</section>`,
  });
}
