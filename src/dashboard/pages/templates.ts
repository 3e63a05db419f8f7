// Templates: the account's stored templates, newest first, and the way to a new one.
import { fmt, html } from "../html";
import { layout, type Viewer } from "../layout";
import { type Notice, notice, pageHead } from "./common";
import { deleteLink, pagedTable } from "./table";

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
  <td data-label="Actions"><div class="actions"><a href="/dashboard/templates/${t.id}" aria-label="Edit ${t.name}">Edit</a>${deleteLink(`/dashboard/templates/${t.id}/delete`, t.name)}</div></td>
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
  ${pagedTable(
    {
      caption: "Templates: name, id, engine, latest version, last updated",
      columns: ["Name", "Id", "Engine", { label: "Latest version", class: "num" }, "Updated"],
      rows,
      actions: true,
    },
    {
      base: "/dashboard/templates",
      noun: "templates",
      cursor: o.cursor,
      nextCursor: o.nextCursor,
      empty: html`Create one with <a href="/dashboard/templates/new">New template</a>, or with <span class="mono">POST /api/v1/templates</span>.`,
    },
  )}
</section>`,
  });
}
