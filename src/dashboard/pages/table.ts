// The listings' table and what stands around it (Keys, Signing, Assets, Templates, Reports, Audit,
// Overview). The `cards` class turns each row into a card on a narrow screen, each cell showing its
// data-label (app.css); the caption names the columns for screen readers, and the actions column's
// header is there for them alone.
import { type Html, html } from "../html";

/** A column's header: its label, or its label with a class (`num` aligns numbers). */
export type Column = string | { label: string; class: string };

const header = (c: Column) =>
  typeof c === "string" ? html`<th scope="col">${c}</th>` : html`<th scope="col" class="${c.class}">${c.label}</th>`;

export function cardTable(o: {
  caption: Html | string;
  columns: Column[];
  rows: Html[];
  /** A last column of links per row (delete, download), its header hidden. */
  actions?: boolean;
  /** A class besides `cards`, for a table of its own look (the audit log's). */
  class?: string;
}): Html {
  const actions = o.actions ? html`<th scope="col"><span class="visually-hidden">Actions</span></th>` : "";
  return html`<div class="table-wrap"><table class="cards${o.class ? ` ${o.class}` : ""}">
  <caption class="visually-hidden">${o.caption}</caption>
  <thead><tr>${o.columns.map(header)}${actions}</tr></thead>
  <tbody>${o.rows}</tbody>
</table></div>`;
}

/** A row's link to the page that asks before deleting it; `what` completes its name for screen readers. */
export const deleteLink = (href: string, what: string): Html => html`<a href="${href}" aria-label="Delete ${what}">Delete</a>`;

/** What stands instead of the table when a listing has no rows. */
export const emptyPanel = (title: string, text: Html | string): Html =>
  html`<div class="panel empty"><h3>${title}</h3><p>${text}</p></div>`;

/**
 * A paged listing's table, its link to the next page, and instead of both when a page has no rows:
 * `empty` on the first page, a way back to the newest on a later one. `base` is the listing's address,
 * `noun` the plural its texts name ("assets").
 */
export function pagedTable(
  table: Parameters<typeof cardTable>[0],
  o: { base: string; noun: string; cursor?: string; nextCursor?: string; empty: Html | string },
): Html {
  if (table.rows.length === 0)
    return o.cursor
      ? emptyPanel(`No more ${o.noun}`, html`<a href="${o.base}">Back to the newest</a>`)
      : emptyPanel(`No ${o.noun} yet`, o.empty);
  return html`${cardTable(table)}
${o.nextCursor ? html`<nav class="pager" aria-label="More ${o.noun}"><a class="button secondary" href="${o.base}?cursor=${encodeURIComponent(o.nextCursor)}">Older ${o.noun}</a></nav>` : ""}`;
}
