// Templates: the account's stored templates, newest first, and the way to a new one.
import { fmt, html } from "../html";
import { layout, type Viewer } from "../layout";
import { type Notice, notice, pageHead } from "./common";

export interface TemplateRow {
  id: string;
  name: string;
  engine: string;
  latestVersion: number;
  updatedAt: number;
}

export function templatesPage(viewer: Viewer, o: { items: TemplateRow[]; cursor?: string; nextCursor?: string; message?: Notice }) {
  const rows = o.items.map(
    (t) => html`<tr>
  <td data-label="Name"><a href="/dashboard/templates/${t.id}"><strong>${t.name}</strong></a></td>
  <td data-label="Id" class="mono">${t.id}</td>
  <td data-label="Engine">${t.engine.toUpperCase()}</td>
  <td data-label="Latest version" class="num">${t.latestVersion}</td>
  <td data-label="Updated">${fmt.time(t.updatedAt)}</td>
  <td data-label="Actions"><div class="actions"><a href="/dashboard/templates/${t.id}" aria-label="Edit ${t.name}">Edit</a><a href="/dashboard/templates/${t.id}/delete" aria-label="Delete ${t.name}">Delete</a></div></td>
</tr>`,
  );
  return layout({
    title: "Templates",
    section: "templates",
    viewer,
    body: html`${pageHead(
      "Templates",
      "Stored templates are versioned: every save makes a new, unchangeable version, and your services render one by its id.",
      html`<a class="button" href="/dashboard/templates/new">New template</a>`,
    )}
${notice(o.message)}
<section aria-labelledby="list-title">
  <h2 id="list-title" class="visually-hidden">Templates of this account</h2>
  ${
    o.items.length
      ? html`<div class="table-wrap"><table class="cards">
  <caption class="visually-hidden">Templates: name, id, engine, latest version, last updated</caption>
  <thead><tr><th scope="col">Name</th><th scope="col">Id</th><th scope="col">Engine</th><th scope="col" class="num">Latest version</th><th scope="col">Updated</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
  <tbody>${rows}</tbody>
</table></div>
${o.nextCursor ? html`<nav class="pager" aria-label="More templates"><a class="button secondary" href="/dashboard/templates?cursor=${encodeURIComponent(o.nextCursor)}">Older templates</a></nav>` : ""}`
      : html`<div class="panel empty"><h3>${o.cursor ? "No more templates" : "No templates yet"}</h3><p>${
          o.cursor
            ? html`<a href="/dashboard/templates">Back to the newest</a>`
            : html`Create one with <a href="/dashboard/templates/new">New template</a>, or with <span class="mono">POST /api/v1/templates</span>.`
        }</p></div>`
  }
</section>`,
  });
}
