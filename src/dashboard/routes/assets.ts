// Assets: the library page, its fonts style sheet and previews (the bytes, behind the session), upload
// (a multipart form: the file picker, or a file dropped on it) and delete behind a confirmation. The
// same AssetsService as the API, so the same checks, limits and audit events.
import { Elysia } from "elysia";
import { requireScope } from "../../access/scopes";
import { AppError } from "../../lib/errors";
import type { DashboardDeps, Guards } from "../guards";
import { html } from "../html";
import type { Viewer } from "../layout";
import { assetsPage, fontsCss, LIBRARY } from "../pages/assets";
import { confirmPage } from "../pages/common";
import { htmlResponse, pageHeaders, redirect } from "../security";
import type { Session } from "../sessions";

const LIST_LIMIT = 50;

export function assetsRoutes(d: DashboardDeps, g: Guards) {
  const list = async (
    s: Session,
    viewer: Viewer,
    extra: { cursor?: string; message?: Parameters<typeof assetsPage>[1]["message"]; uploadError?: string } = {},
    status = 200,
  ) => {
    const page = await d.assets.list(s.accountId, { cursor: extra.cursor, limit: LIST_LIMIT });
    const canWrite = s.scopes.includes("assets:write");
    return htmlResponse(
      assetsPage(viewer, { items: page.items, nextCursor: page.nextCursor ?? undefined, canWrite, maxSize: d.assetMaxSize, ...extra }),
      status,
    );
  };

  return new Elysia({ name: "dashboard-assets" })
    .get(
      LIBRARY,
      g.page(async ({ query }, s) => {
        requireScope(s.scopes, "assets:read", "the assets page");
        const message = query.uploaded
          ? ({
              kind: "ok",
              text: `${query.uploaded} was ${query.replaced ? "replaced" : "uploaded"}: templates use it as asset:${query.uploaded}.`,
            } as const)
          : query.deleted
            ? ({ kind: "ok", text: `${query.deleted} was deleted; reports that still use it fail with asset_not_found.` } as const)
            : undefined;
        return list(s, await g.viewerOf(s), { cursor: query.cursor, message });
      }),
    )
    .get(
      `${LIBRARY}/fonts.css`,
      g.page(async (_c, s) => {
        requireScope(s.scopes, "assets:read", "the assets page");
        const page = await d.assets.list(s.accountId, { limit: 100 });
        return new Response(fontsCss(page.items), { headers: pageHeaders({ "content-type": "text/css; charset=utf-8" }) });
      }),
    )
    .get(
      `${LIBRARY}/:id/content`,
      g.page(async ({ params: { id = "" } }, s) => {
        requireScope(s.scopes, "assets:read", "an asset's preview");
        const { asset, bytes } = await d.assets.content(s.accountId, id);
        return new Response(new Blob([bytes as Uint8Array<ArrayBuffer>]), {
          headers: pageHeaders({
            "content-type": asset.type,
            // An SVG opened on its own runs nothing (scripts are refused at upload as well).
            "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'; sandbox",
            "cache-control": "private, no-store",
          }),
        });
      }),
    )
    .post(
      LIBRARY,
      g.action(async (c, s, form) => {
        requireScope(s.scopes, "assets:write", "uploading an asset");
        const file = (c.body as { file?: unknown }).file;
        if (!(file instanceof Blob) || file.size === 0)
          return list(s, await g.viewerOf(s), { uploadError: "Choose a file to upload (or drop one on the file field)." }, 422);
        const name = form.name?.trim() || (file as File).name || "";
        try {
          const { asset, replaced } = await d.assets.upload(g.actorOf(c, s), {
            name,
            bytes: new Uint8Array(await file.arrayBuffer()),
            declaredType: file.type || undefined,
          });
          return redirect(`${LIBRARY}?uploaded=${encodeURIComponent(asset.name)}${replaced ? "&replaced=1" : ""}`);
        } catch (e) {
          if (e instanceof AppError && e.status < 500) return list(s, await g.viewerOf(s), { uploadError: e.message }, e.status);
          throw e;
        }
      }),
    )
    .get(
      `${LIBRARY}/:id/delete`,
      g.page(async ({ params: { id = "" } }, s) => {
        requireScope(s.scopes, "assets:write", "deleting an asset");
        const a = await d.assets.get(s.accountId, id);
        return htmlResponse(
          confirmPage({
            viewer: await g.viewerOf(s),
            section: "assets",
            title: "Delete this asset?",
            question: html`Delete the asset <strong>${a.name}</strong> (<span class="mono">asset:${a.name}</span>)?`,
            consequence: "Reports already made keep their PDFs; reports that still refer to it fail with asset_not_found from now on.",
            action: `${LIBRARY}/${a.id}/delete`,
            button: `Delete ${a.name}`,
            cancel: LIBRARY,
          }),
        );
      }),
    )
    .post(
      `${LIBRARY}/:id/delete`,
      g.action(async (c, s) => {
        requireScope(s.scopes, "assets:write", "deleting an asset");
        const a = await d.assets.delete(g.actorOf(c, s), c.params.id ?? "");
        return redirect(`${LIBRARY}?deleted=${encodeURIComponent(a.name)}`);
      }),
    );
}
