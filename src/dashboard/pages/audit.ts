// Audit log: what was done to the account's keys, templates, webhook secret and dashboard sessions, by whom and
// from where, newest first, a page at a time (the same events as GET /api/v1/audit-events).
import type { AuditEvent, AuditEventType } from "../../modules/audit/model";
import { fmt, type Html, html } from "../html";
import { layout, type Viewer } from "../layout";
import { pageHead } from "./common";
import { cardTable } from "./table";

export const AUDIT_PAGE_SIZE = 50;

/** A key id with its name when the key still exists. */
function keyRef(id: string, names: Map<string, string>): Html {
  const name = names.get(id);
  return name
    ? html`${name} <span class="mono sub">${id}</span>`
    : html`<span class="mono">${id}</span> <span class="sub">(deleted)</span>`;
}

function actorOf(e: AuditEvent, names: Map<string, string>): Html {
  if (e.actor === "key" && e.actorKeyId) return keyRef(e.actorKeyId, names);
  if (e.actor === "cli") return html`<span class="sub">reportgen admin (command line)</span>`;
  return html`<span class="sub">nobody signed in</span>`;
}

/** Key ids are 12 characters of [a-z2-9]: shown with their names; other targets (an account) as they are. */
function targetOf(e: AuditEvent, names: Map<string, string>): Html | string {
  if (!e.target) return "—";
  return /^[a-z2-9]{12}$/.test(e.target) ? keyRef(e.target, names) : html`<span class="mono">${e.target}</span>`;
}

/** The event's detail object, as "key: value" pairs. */
function detailOf(e: AuditEvent): Html | string {
  if (!e.detail) return "";
  try {
    const d = JSON.parse(e.detail) as Record<string, unknown>;
    const parts = Object.entries(d)
      .filter(([, v]) => v !== null && v !== undefined)
      .map(([k, v]) => `${k}: ${Array.isArray(v) ? v.join(" ") : typeof v === "object" ? JSON.stringify(v) : v}`);
    return parts.length ? html`<p class="sub detail">${parts.join(" · ")}</p>` : "";
  } catch {
    return "";
  }
}

export function auditPage(
  viewer: Viewer,
  o: {
    items: AuditEvent[];
    names: Map<string, string>;
    cursor?: string;
    nextCursor: string | null;
    retentionDays: number;
    /** Each event type's label, declared by the module that records it. */
    labels: Readonly<Record<AuditEventType, string>>;
  },
) {
  const rows = o.items.map(
    (e) => html`<tr>
  <td data-label="Time">${fmt.time(e.createdAt)}</td>
  <td data-label="Event"><strong>${o.labels[e.type] ?? e.type}</strong> <span class="mono sub">${e.type}</span>${detailOf(e)}</td>
  <td data-label="By">${actorOf(e, o.names)}</td>
  <td data-label="Address" class="mono">${e.clientAddress ?? "—"}</td>
  <td data-label="Target">${targetOf(e, o.names)}</td>
</tr>`,
  );
  return layout({
    title: "Audit log",
    section: "audit",
    viewer,
    body: html`${pageHead("Audit log", `Changes to this account's keys and webhook secret, and dashboard sign-ins, newest first. Kept ${o.retentionDays} days.`)}
${
  o.items.length
    ? cardTable({
        caption: "Audit events, newest first: time, event, who, client address, target",
        columns: ["Time", "Event", "By", "Address", "Target"],
        rows,
        class: "audit",
      })
    : html`<div class="panel empty"><h2>No events${o.cursor ? " on this page" : ""}</h2><p>Creating, rotating or deleting a key, rotating the webhook secret and signing in to the dashboard are recorded here.</p></div>`
}
<nav class="pager" aria-label="Pages of audit events">
  <span>${o.cursor ? html`<a href="/dashboard/audit">← Newest</a>` : ""}</span>
  <span>${o.nextCursor ? html`<a href="/dashboard/audit?cursor=${encodeURIComponent(o.nextCursor)}">Older events →</a>` : ""}</span>
</nav>`,
  });
}
