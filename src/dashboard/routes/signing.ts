// Signing: the account's signing identities, uploaded from a PKCS#12 file (multipart form), listed,
// and deleted behind a confirmation. The same service and checks as /api/v1/signing-identities.
import { Elysia } from "elysia";
import { requireScope } from "../../access/scopes";
import { AppError } from "../../lib/errors";
import { PKCS12_MAX_BYTES } from "../../pdf/signature/pkcs12";
import { DASHBOARD, type DashboardDeps, type Guards } from "../guards";
import { html } from "../html";
import type { Viewer } from "../layout";
import { confirmPage } from "../pages/common";
import { signingPage } from "../pages/signing";
import { htmlResponse, redirect } from "../security";
import type { Session } from "../sessions";

export function signingRoutes(d: DashboardDeps, g: Guards) {
  const list = async (s: Session, viewer: Viewer, extra: Omit<Parameters<typeof signingPage>[1], "identities"> = {}, status = 200) =>
    htmlResponse(signingPage(viewer, { identities: await d.signing.list(s.accountId), ...extra }), status);

  return new Elysia({ name: "dashboard-signing" })
    .get(
      `${DASHBOARD}/signing`,
      g.page(async ({ query }, s) => {
        requireScope(s.scopes, "signing:manage", "the signing page");
        return list(s, await g.viewerOf(s), {
          message: query.deleted ? { kind: "ok", text: `Signing identity ${query.deleted} was deleted.` } : undefined,
        });
      }),
    )
    .post(
      `${DASHBOARD}/signing`,
      g.action(async (c, s, form) => {
        const viewer = await g.viewerOf(s);
        requireScope(s.scopes, "signing:manage", "uploading a signing identity");
        const name = (form.name ?? "").trim();
        const file = (c.body as Record<string, unknown>).p12;
        const refuse = (field: "name" | "p12" | "password", text: string) => list(s, viewer, { error: { field, text }, name }, 422);
        if (!name || name.length > 200) return refuse("name", "Give the identity a name of 1 to 200 characters.");
        if (!(file instanceof Blob) || file.size === 0) return refuse("p12", "Choose the PKCS#12 file (.p12 or .pfx) to upload.");
        if (file.size > PKCS12_MAX_BYTES) return refuse("p12", `The file is larger than 2 MB: export only the signing key and its chain.`);
        try {
          const created = await d.signing.create(g.actorOf(c, s), {
            name,
            p12Base64: Buffer.from(await file.arrayBuffer()).toString("base64"),
            password: form.password ?? "",
          });
          return list(
            s,
            viewer,
            {
              message: {
                kind: "ok",
                text: html`Uploaded <strong>${created.name}</strong> (${created.subject}). Sign with identity_id <span class="mono">${created.id}</span>.`,
              },
            },
            201,
          );
        } catch (e) {
          if (e instanceof AppError && e.status === 422) return refuse(e.code === "pkcs12_password_wrong" ? "password" : "p12", e.message);
          throw e;
        }
      }),
    )
    .get(
      `${DASHBOARD}/signing/:id/delete`,
      g.page(async ({ params: { id = "" } }, s) => {
        requireScope(s.scopes, "signing:manage", "deleting a signing identity");
        const i = await d.signing.get(s.accountId, id);
        return htmlResponse(
          confirmPage({
            viewer: await g.viewerOf(s),
            section: "signing",
            title: "Delete this signing identity?",
            question: html`Delete <strong>${i.name}</strong> (${i.subject})?`,
            consequence: "Its sealed key is deleted. Queued reports that sign with it fail; PDFs already signed stay valid.",
            action: `${DASHBOARD}/signing/${i.id}/delete`,
            button: `Delete ${i.name}`,
            cancel: `${DASHBOARD}/signing`,
          }),
        );
      }),
    )
    .post(
      `${DASHBOARD}/signing/:id/delete`,
      g.action(async (c, s) => {
        const id = c.params.id ?? "";
        requireScope(s.scopes, "signing:manage", "deleting a signing identity");
        await d.signing.delete(g.actorOf(c, s), id);
        return redirect(`${DASHBOARD}/signing?deleted=${encodeURIComponent(id)}`);
      }),
    );
}
