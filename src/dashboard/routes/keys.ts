// Access Keys: create (the value shown once), list, delete behind a confirmation.

import { Elysia } from "elysia";
import { requireScope } from "../../access/scopes";
import { AppError } from "../../lib/errors";
import { dayRange } from "../../modules/usage/service";
import { DASHBOARD, type DashboardDeps, type Guards } from "../guards";
import { html } from "../html";
import type { Viewer } from "../layout";
import { confirmPage } from "../pages/common";
import { keysPage } from "../pages/keys";
import { htmlResponse, redirect } from "../security";
import type { Session } from "../sessions";

export function keysRoutes(d: DashboardDeps, g: Guards) {
  const keysList = async (
    s: Session,
    viewer: Viewer,
    extra: Omit<Parameters<typeof keysPage>[1], "keys" | "currentKeyId"> = {},
    status = 200,
  ) => {
    const [keys, usage] = await Promise.all([d.keys.list(s.accountId), d.usage.byKey(s.accountId, dayRange({}))]);
    return htmlResponse(keysPage(viewer, { keys, currentKeyId: s.keyId, usage: usage.keys, ...extra }), status);
  };

  return new Elysia({ name: "dashboard-keys" })
    .get(
      `${DASHBOARD}/keys`,
      g.page(async ({ query }, s) => {
        requireScope(s.scopes, "keys:manage", "the access keys page");
        return keysList(s, await g.viewerOf(s), {
          message: query.deleted ? { kind: "ok", text: `Key ${query.deleted} was deleted; the API refuses it from now on.` } : undefined,
        });
      }),
    )
    .post(
      `${DASHBOARD}/keys`,
      g.action(async (c, s, form) => {
        const viewer = await g.viewerOf(s);
        requireScope(s.scopes, "keys:manage", "creating a key");
        try {
          const created = await d.keys.create(s.accountId, { name: form.name ?? "" }, s.scopes, g.actorOf(c, s));
          return keysList(s, viewer, { created }, 201);
        } catch (e) {
          if (e instanceof AppError && e.status === 422) return keysList(s, viewer, { nameError: e.message, name: form.name }, 422);
          throw e;
        }
      }),
    )
    .get(
      `${DASHBOARD}/keys/:id/delete`,
      g.page(async ({ params: { id = "" } }, s) => {
        requireScope(s.scopes, "keys:manage", "deleting a key");
        const key = (await d.keys.list(s.accountId)).find((k) => k.id === id);
        if (!key) throw new AppError("not_found", `There is no key ${id} in this account. It may have been deleted already.`);
        const mine = key.id === s.keyId;
        return htmlResponse(
          confirmPage({
            viewer: await g.viewerOf(s),
            section: "keys",
            title: "Delete this key?",
            question: html`Delete the key <strong>${key.name}</strong> (<span class="mono">${key.id}</span>)?`,
            consequence: `Every request that uses it is refused from then on, at once.${mine ? " This is the key you signed in with: you will be signed out." : ""}`,
            action: `${DASHBOARD}/keys/${key.id}/delete`,
            button: `Delete ${key.name}`,
            cancel: `${DASHBOARD}/keys`,
          }),
        );
      }),
    )
    .post(
      `${DASHBOARD}/keys/:id/delete`,
      g.action(async (c, s) => {
        const id = c.params.id ?? "";
        requireScope(s.scopes, "keys:manage", "deleting a key");
        await d.keys.delete(id, { accountId: s.accountId, actor: g.actorOf(c, s), scopes: s.scopes });
        // Its sessions, this one too when it is the key signed in with, went with it (foreign key cascade).
        if (id === s.keyId) return redirect(`${DASHBOARD}/sign-in?notice=key-deleted`, [g.endSessionCookie]);
        return redirect(`${DASHBOARD}/keys?deleted=${encodeURIComponent(id)}`);
      }),
    );
}
