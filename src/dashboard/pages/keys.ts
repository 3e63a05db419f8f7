// Access Keys: create (the value shown once), list, and delete behind a confirmation.
import type { CreatedKey, KeyRow } from "../../modules/keys/service";
import { KEY_NAME_MAX } from "../../modules/keys/service";
import { fmt, html } from "../html";
import { layout, type Viewer } from "../layout";
import { type Notice, notice, pageHead } from "./common";

export function keysPage(
  viewer: Viewer,
  o: { keys: KeyRow[]; currentKeyId: string; created?: CreatedKey; nameError?: string; name?: string; message?: Notice },
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
  const rows = o.keys.map(
    (k) => html`<tr>
  <td data-label="Name"><strong>${k.name}</strong>${k.id === o.currentKeyId ? html` <span class="badge current">This session</span>` : ""}</td>
  <td data-label="Public id" class="mono">${k.id}</td>
  <td data-label="Created">${fmt.time(k.createdAt)}</td>
  <td data-label="Last used">${fmt.time(k.lastUsedAt)}</td>
  <td data-label="Actions"><a href="/dashboard/keys/${k.id}/delete" aria-label="Delete key ${k.name}">Delete</a></td>
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
      ? html`<div class="table-wrap"><table class="cards">
  <caption class="visually-hidden">Access keys: name, public id, created, last used</caption>
  <thead><tr><th scope="col">Name</th><th scope="col">Public id</th><th scope="col">Created</th><th scope="col">Last used</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
  <tbody>${rows}</tbody>
</table></div>`
      : html`<div class="panel empty"><h3>No keys</h3><p>Create one above.</p></div>`
  }
</section>`,
  });
}
