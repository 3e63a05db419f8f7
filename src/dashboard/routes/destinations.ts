// Destinations: list, add (one form per type), test and delete behind a confirmation. The same service
// and checks as /api/v1/destinations; a refusal is shown on the page with the API's message.
import { Elysia } from "elysia";
import { requireScope } from "../../access/scopes";
import { AppError } from "../../lib/errors";
import type { CreateDestination } from "../../modules/destinations/model";
import { DASHBOARD, type DashboardDeps, type Guards } from "../guards";
import { html } from "../html";
import type { Viewer } from "../layout";
import { confirmPage, type Notice } from "../pages/common";
import { destinationsPage } from "../pages/destinations";
import { htmlResponse, redirect } from "../security";
import type { Session } from "../sessions";

const WHAT = "the destinations page";

/** The create body of a form: its type's fields, empty ones left out. */
function bodyOf(form: Record<string, string | undefined>): CreateDestination {
  const given = (k: string) => (form[k] ?? "").trim() || undefined;
  const type = form.type === "sftp" || form.type === "email" ? form.type : "s3";
  const name = given("name") ?? "";
  if (type === "email") return { name, type, email: { to: (given("to") ?? "").split(/[,\s]+/).filter(Boolean) } };
  if (type === "sftp")
    return {
      name,
      type,
      sftp: {
        host: given("host") ?? "",
        ...(given("port") ? { port: Number(given("port")) } : {}),
        user: given("user") ?? "",
        host_key: given("host_key") ?? "",
        ...(given("directory") ? { directory: given("directory") } : {}),
        ...(given("private_key") ? { private_key: form.private_key } : {}),
        ...(given("password") ? { password: form.password } : {}),
      },
    };
  return {
    name,
    type,
    s3: {
      ...(given("endpoint") ? { endpoint: given("endpoint") } : {}),
      ...(given("region") ? { region: given("region") } : {}),
      bucket: given("bucket") ?? "",
      ...(given("prefix") ? { prefix: given("prefix") } : {}),
      access_key_id: given("access_key_id") ?? "",
      secret_access_key: form.secret_access_key ?? "",
    },
  };
}

export function destinationsRoutes(d: DashboardDeps, g: Guards) {
  const list = async (s: Session, viewer: Viewer, message?: Notice, status = 200) =>
    htmlResponse(destinationsPage(viewer, { destinations: await d.destinations.list(s.accountId), message }), status);

  return new Elysia({ name: "dashboard-destinations" })
    .get(
      `${DASHBOARD}/destinations`,
      g.page(async ({ query }, s) => {
        requireScope(s.scopes, "destinations:manage", WHAT);
        return list(s, await g.viewerOf(s), query.deleted ? { kind: "ok", text: `Destination ${query.deleted} was deleted.` } : undefined);
      }),
    )
    .post(
      `${DASHBOARD}/destinations`,
      g.action(async (c, s, form) => {
        const viewer = await g.viewerOf(s);
        requireScope(s.scopes, "destinations:manage", "adding a destination");
        const body = bodyOf(form);
        if (!body.name || body.name.length > 200)
          return list(s, viewer, { kind: "error", text: "Give the destination a name of 1 to 200 characters." }, 422);
        try {
          const made = await d.destinations.create(g.actorOf(c, s), body);
          return list(
            s,
            viewer,
            {
              kind: "ok",
              text: html`Added <strong>${made.name}</strong>. Deliver to it with destination_id <span class="mono">${made.id}</span>.`,
            },
            201,
          );
        } catch (e) {
          if (e instanceof AppError && e.status === 422) return list(s, viewer, { kind: "error", text: e.message }, 422);
          throw e;
        }
      }),
    )
    .post(
      `${DASHBOARD}/destinations/:id/test`,
      g.action(async (c, s) => {
        requireScope(s.scopes, "destinations:manage", "testing a destination");
        const dest = await d.destinations.get(s.accountId, c.params.id ?? "");
        const r = await d.destinations.test(g.actorOf(c, s), dest.id);
        const message: Notice = r.ok
          ? { kind: "ok", text: html`Test of <strong>${dest.name}</strong>: ${r.target} arrived (${String(r.durationMs)} ms).` }
          : { kind: "error", text: html`Test of <strong>${dest.name}</strong> failed: ${r.error ?? ""}` };
        return list(s, await g.viewerOf(s), message);
      }),
    )
    .get(
      `${DASHBOARD}/destinations/:id/delete`,
      g.page(async ({ params: { id = "" } }, s) => {
        requireScope(s.scopes, "destinations:manage", "deleting a destination");
        const dest = await d.destinations.get(s.accountId, id);
        return htmlResponse(
          confirmPage({
            viewer: await g.viewerOf(s),
            section: "destinations",
            title: "Delete this destination?",
            question: html`Delete <strong>${dest.name}</strong> (${dest.type})?`,
            consequence: "Its sealed secrets are deleted. Deliveries to it still pending fail; what was delivered stays where it is.",
            action: `${DASHBOARD}/destinations/${dest.id}/delete`,
            button: `Delete ${dest.name}`,
            cancel: `${DASHBOARD}/destinations`,
          }),
        );
      }),
    )
    .post(
      `${DASHBOARD}/destinations/:id/delete`,
      g.action(async (c, s) => {
        const id = c.params.id ?? "";
        requireScope(s.scopes, "destinations:manage", "deleting a destination");
        await d.destinations.delete(g.actorOf(c, s), id);
        return redirect(`${DASHBOARD}/destinations?deleted=${encodeURIComponent(id)}`);
      }),
    );
}
