// Assets: the account's library of logos, fonts and style sheets. Upload with the file picker (or by
// dropping a file on it: app.js), a preview of each (images as they are, fonts as a sample line through
// the page's own font style sheet), the asset: reference to copy, and delete behind a confirmation.
import type { Asset } from "../../modules/assets/model";
import { ASSET_NAME_HELP } from "../../modules/assets/model";
import { fmt, type Html, html } from "../html";
import { layout, type Viewer } from "../layout";
import { type Notice, notice, pageHead } from "./common";
import { deleteLink, pagedTable } from "./table";

export const LIBRARY = "/dashboard/asset-library";

/** The class a font asset's sample uses: its @font-face is in the page's fonts.css. */
export const fontClass = (a: Asset) => `asset-font-${a.id}`;

function preview(a: Asset): Html {
  if (a.type.startsWith("image/"))
    return html`<img class="asset-thumb" src="${LIBRARY}/${a.id}/content" alt="Preview of ${a.name}" loading="lazy">`;
  if (a.type.startsWith("font/")) return html`<span class="asset-sample ${fontClass(a)}">Invoice 0123 Äé</span>`;
  return html`<span class="sub">Style sheet</span>`;
}

export function assetsPage(
  viewer: Viewer,
  o: { items: Asset[]; cursor?: string; nextCursor?: string; message?: Notice; uploadError?: string; canWrite: boolean; maxSize: number },
) {
  const rows = o.items.map(
    (a, i) => html`<tr>
  <td data-label="Preview" class="asset-preview">${preview(a)}</td>
  <td data-label="Name"><strong id="asset-name-${i}">${a.name}</strong> <span class="sub block">${a.type} · ${fmt.size(a.sizeBytes)}</span></td>
  <td data-label="Reference" class="asset-ref"><div class="secret">
    <label class="visually-hidden" for="ref-${i}">Reference of ${a.name}</label>
    <input id="ref-${i}" type="text" readonly value="asset:${a.name}" spellcheck="false" autocomplete="off" class="mono">
    <button class="button small secondary" type="button" data-copy="ref-${i}" aria-describedby="asset-name-${i}">Copy</button>
  </div></td>
  <td data-label="Updated">${fmt.time(a.updatedAt)}</td>
  <td data-label="Actions"><div class="actions"><a href="${LIBRARY}/${a.id}/content" download="${a.name}" aria-label="Download ${a.name}">Download</a>${
    o.canWrite ? deleteLink(`${LIBRARY}/${a.id}/delete`, a.name) : ""
  }</div></td>
</tr>`,
  );
  const upload = o.canWrite
    ? html`<section class="panel" aria-labelledby="upload-title">
  <h2 id="upload-title">Upload an asset</h2>
  <form method="post" action="${LIBRARY}" enctype="multipart/form-data" class="asset-upload" data-dropzone novalidate>
    <input type="hidden" name="_csrf" value="${viewer.csrfToken}">
    <div class="field drop-target">
      <label for="asset-file">File</label>
      <input id="asset-file" name="file" type="file" required accept=".png,.jpg,.jpeg,.webp,.svg,.woff2,.woff,.ttf,.otf,.css,image/png,image/jpeg,image/webp,image/svg+xml,font/woff2,font/woff,font/ttf,font/otf,text/css" aria-describedby="file-hint${o.uploadError ? " upload-error" : ""}"${o.uploadError ? html` aria-invalid="true"` : ""}>
      <p id="file-hint" class="hint">PNG, JPEG, WebP, SVG, WOFF2, WOFF, TTF, OTF or CSS, up to ${fmt.size(o.maxSize)}. You can also drop a file here.</p>
      ${o.uploadError ? html`<p id="upload-error" class="field-error">${o.uploadError}</p>` : ""}
    </div>
    <div class="field grow">
      <label for="asset-name">Name <span class="sub">(optional)</span></label>
      <input id="asset-name" name="name" type="text" maxlength="128" placeholder="the file's name" aria-describedby="asset-name-hint">
      <p id="asset-name-hint" class="hint">${ASSET_NAME_HELP}. Templates use it as asset:name; an existing name is replaced.</p>
    </div>
    <button class="button" type="submit">Upload</button>
  </form>
</section>`
    : html`<p class="notice warn" role="status">This key may look at assets but not change them (it lacks the scope assets:write).</p>`;
  return layout({
    title: "Assets",
    section: "assets",
    viewer,
    body: html`${pageHead(
      "Assets",
      html`Logos, fonts and style sheets for your templates. Write <span class="mono">asset:logo.png</span> in a template's src, href, CSS url() or @font-face; reports read the asset when they render.`,
    )}
<link rel="stylesheet" href="${LIBRARY}/fonts.css">
${notice(o.message)}
${upload}
<section aria-labelledby="list-title">
  <h2 id="list-title">Assets of this account</h2>
  ${pagedTable(
    {
      caption: "Assets: preview, name with type and size, the reference to use in templates, last updated",
      columns: ["Preview", "Name", "Reference", "Updated"],
      rows,
      actions: true,
    },
    {
      base: LIBRARY,
      noun: "assets",
      cursor: o.cursor,
      nextCursor: o.nextCursor,
      empty: html`Upload one above, or with <span class="mono">POST /api/v1/assets</span>.`,
    },
  )}
</section>`,
  });
}

/** The @font-face of every font asset listed, so each sample line shows in its own font. */
export function fontsCss(items: Asset[]): string {
  return items
    .filter((a) => a.type.startsWith("font/"))
    .map(
      (a) =>
        `@font-face { font-family: "${fontClass(a)}"; src: url("${LIBRARY}/${a.id}/content"); }\n.${fontClass(a)} { font-family: "${fontClass(a)}", serif; }\n`,
    )
    .join("");
}
