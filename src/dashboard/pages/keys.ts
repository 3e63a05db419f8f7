// Access Keys: create (the value shown once), list with scopes, expiry, last use and the last 30 days'
// usage of each key, and delete behind a confirmation.
import { parseScopes } from "../../modules/keys/scopes";
import type { CreatedKey, KeyRow } from "../../modules/keys/service";
import { KEY_NAME_MAX } from "../../modules/keys/service";
import type { UsageTotals } from "../../modules/usage/repo";
import type { KeyUsage } from "../../modules/usage/service";
import { fmt, html } from "../html";
import { layout, type Viewer } from "../layout";
import { type Notice, notice, pageHead } from "./common";
import { cardTable, deleteLink, emptyPanel } from "./table";

export function keysPage(
  viewer: Viewer,
  o: {
    keys: KeyRow[];
    currentKeyId: string;
    /** Usage per submitting key over the last 30 days (keys without reports absent); deleted keys' too. */
    usage?: KeyUsage[];
    now?: number;
    created?: CreatedKey;
    nameError?: string;
    name?: string;
    message?: Notice;
  },
) {
  const created = o.created
    ? html`<section class="notice warn" aria-labelledby="new-key-title">
  <h2 id="new-key-title">Copy the new key "${o.created.name}" now</h2>
  <p>This is the only time it is shown: reportgen keeps only a hash of it. Store it in your secret manager; if it is lost, delete it and create another.</p>
  <div class="secret">
    <label class="visually-hidden" for="new-key">New access key</label>
    <input id="new-key" type="text" readonly value="${o.created.value}" spellcheck="false" autocomplete="off">
    <button class="button" type="button" data-copy="new-key">Copy</button>
  </div>
</section>`
    : "";
  const now = o.now ?? Date.now();
  const usage = new Map((o.usage ?? []).map((u) => [u.keyId, u]));
  const listed = new Set(o.keys.map((k) => k.id));
  const others = (o.usage ?? []).filter((u) => !listed.has(u.keyId));
  const rows = o.keys.map(
    (k) => html`<tr>
  <td data-label="Name"><strong>${k.name}</strong>${k.id === o.currentKeyId ? html` <span class="badge current">This session</span>` : ""} <span class="sub block">created ${fmt.time(k.createdAt)}</span></td>
  <td data-label="Public id" class="mono">${k.id}</td>
  <td data-label="Scopes"><ul class="scopes">${parseScopes(k.scopes).map((s) => html`<li class="mono">${s}</li>`)}</ul></td>
  <td data-label="Expires">${expiry(k.expiresAt, now)}</td>
  <td data-label="Last used">${fmt.time(k.lastUsedAt)}</td>
  <td data-label="Last 30 days" class="usage-cell">${usageText(usage.get(k.id))}</td>
  <td data-label="Actions">${deleteLink(`/dashboard/keys/${k.id}/delete`, `key ${k.name}`)}</td>
</tr>`,
  );
  return layout({
    title: "Access Keys",
    section: "keys",
    viewer,
    body: html`${pageHead("Access Keys", "Keys let your services call the API with the X-API-Key header. Each key is shown once, when it is created.")}
${notice(o.message)}
${created}
<section class="panel" aria-labelledby="create-title">
  <h2 id="create-title">Create a key</h2>
  <form method="post" action="/dashboard/keys" class="row" novalidate>
    <input type="hidden" name="_csrf" value="${viewer.csrfToken}">
    <div class="field grow">
      <label for="name">Name</label>
      <input id="name" name="name" type="text" required maxlength="${KEY_NAME_MAX}" value="${o.name ?? ""}" placeholder="e.g. billing-service" aria-describedby="name-hint${o.nameError ? " name-error" : ""}"${o.nameError ? html` aria-invalid="true"` : ""}>
      <p id="name-hint" class="hint">What the key is for, so you know which one to delete later.</p>
      ${o.nameError ? html`<p id="name-error" class="field-error">${o.nameError}</p>` : ""}
    </div>
    <button class="button" type="submit">Create key</button>
  </form>
</section>
<section aria-labelledby="list-title">
  <h2 id="list-title">Keys of this account</h2>
  ${
    o.keys.length
      ? html`${cardTable({
          caption: "Access keys: name and creation, public id, scopes, expiry, last use, usage over the last 30 days",
          columns: ["Name", "Public id", "Scopes", "Expires", "Last used", "Last 30 days"],
          rows,
          actions: true,
        })}${others.length ? html`<p class="sub" id="other-usage">Also in the last 30 days: ${others.map((u, i) => html`${i ? "; " : ""}${u.keyId ? html`deleted key <span class="mono">${u.keyId}</span>` : "reports from before keys were recorded"}: ${fmt.plural(u.submitted, "report")}, ${fmt.plural(u.pages, "page")}`)}.</p>` : ""}`
      : emptyPanel("No keys", "Create one above.")
  }
</section>`,
  });
}

/** "never", the time, or the time marked expired. */
function expiry(expiresAt: number | null, now: number) {
  if (expiresAt == null) return html`<span class="sub">never</span>`;
  return expiresAt <= now ? html`${fmt.time(expiresAt)} <span class="badge failed">Expired</span>` : fmt.time(expiresAt);
}

/** "12 reports · 30 pages" over "11 succeeded, 1 failed · 1.2 MB · 2.41 s rendering", or "No reports". */
function usageText(u: UsageTotals | undefined) {
  if (!u || u.submitted === 0) return html`<span class="sub">No reports</span>`;
  return html`<strong>${fmt.plural(u.submitted, "report")}</strong> · ${fmt.plural(u.pages, "page")} <span class="sub block">${u.succeeded} succeeded, ${u.failed} failed · ${fmt.size(u.bytes)} · ${fmt.duration(u.renderMs)} rendering</span>`;
}
