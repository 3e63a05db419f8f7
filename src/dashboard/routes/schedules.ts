// Schedules: the account's schedules, created from a form, paused and resumed, deleted behind a
// confirmation, and each one's runs. The same service and checks as /api/v1/schedules.
import { Elysia } from "elysia";
import { requireScope } from "../../access/scopes";
import { AppError } from "../../lib/errors";
import type { ScheduleRow } from "../../modules/schedules/repo";
import { DASHBOARD, type DashboardDeps, type Guards } from "../guards";
import { html } from "../html";
import type { Viewer } from "../layout";
import { confirmPage } from "../pages/common";
import { type ScheduleField, type ScheduleForm, scheduleRunsPage, schedulesPage } from "../pages/schedules";
import { htmlResponse, redirect } from "../security";
import type { Session } from "../sessions";

const FIELDS: readonly ScheduleField[] = ["name", "cron", "timezone", "template_id", "data"];
const fieldOf = (e: AppError): ScheduleField => {
  const f = (Array.isArray(e.details) ? (e.details[0] as { field?: string })?.field : undefined) ?? "";
  return (FIELDS.find((x) => f === x || f.startsWith(`${x}.`)) ?? "data") as ScheduleField;
};

export function schedulesRoutes(d: DashboardDeps, g: Guards) {
  const list = async (
    s: Session,
    viewer: Viewer,
    extra: Omit<Parameters<typeof schedulesPage>[1], "schedules" | "templates" | "templateNames"> = {},
    status = 200,
  ) => {
    const [schedules, templates] = await Promise.all([
      d.schedules.list(s.accountId, { limit: 100 }),
      d.templates.list(s.accountId, { limit: 100 }),
    ]);
    const named = templates.items.map((t) => ({ id: t.id, name: t.name }));
    return htmlResponse(
      schedulesPage(viewer, {
        schedules: schedules.items,
        templates: named,
        templateNames: new Map(named.map((t) => [t.id, t.name])),
        ...extra,
      }),
      status,
    );
  };
  const owned = (s: Session, id: string): Promise<ScheduleRow> => d.schedules.get(s.accountId, id);
  const pauseOrResume = (paused: boolean) =>
    g.action(async (c, s) => {
      requireScope(s.scopes, "schedules:manage", paused ? "pausing a schedule" : "resuming a schedule");
      await d.schedules.update(g.actorOf(c, s), c.params.id ?? "", { paused });
      return redirect(`${DASHBOARD}/schedules`);
    });

  return new Elysia({ name: "dashboard-schedules" })
    .get(
      `${DASHBOARD}/schedules`,
      g.page(async ({ query }, s) => {
        requireScope(s.scopes, "schedules:manage", "the schedules page");
        return list(s, await g.viewerOf(s), {
          message: query.deleted ? { kind: "ok", text: `Schedule ${query.deleted} was deleted.` } : undefined,
        });
      }),
    )
    .post(
      `${DASHBOARD}/schedules`,
      g.action(async (c, s, form) => {
        const viewer = await g.viewerOf(s);
        requireScope(s.scopes, "schedules:manage", "creating a schedule");
        const input: ScheduleForm = {
          name: form.name ?? "",
          cron: form.cron ?? "",
          timezone: form.timezone || "UTC",
          template_id: form.template_id ?? "",
          data: form.data ?? "",
          catch_up: form.catch_up === "last" ? "last" : "none",
        };
        const refuse = (field: ScheduleField, text: string) => list(s, viewer, { error: { field, text }, form: input }, 422);
        if (!input.name!.trim()) return refuse("name", "Give the schedule a name.");
        let data: unknown;
        try {
          data = JSON.parse(input.data!.trim() || "{}");
        } catch {
          return refuse("data", 'The data is not JSON: write an object such as {"customer": "ACME"}.');
        }
        if (typeof data !== "object" || data === null || Array.isArray(data))
          return refuse("data", 'The data must be a JSON object, such as {"customer": "ACME"}.');
        try {
          const created = await d.schedules.create(g.actorOf(c, s), {
            name: input.name!,
            cron: input.cron!,
            timezone: input.timezone,
            template_id: input.template_id!,
            data: data as Record<string, unknown>,
            catch_up: input.catch_up as "none" | "last",
          });
          return list(s, viewer, { message: { kind: "ok", text: html`Created <strong>${created.name}</strong>.` } }, 201);
        } catch (e) {
          if (e instanceof AppError && (e.status === 422 || e.status === 404))
            return refuse(e.status === 404 ? "template_id" : fieldOf(e), e.message);
          throw e;
        }
      }),
    )
    .post(`${DASHBOARD}/schedules/:id/pause`, pauseOrResume(true))
    .post(`${DASHBOARD}/schedules/:id/resume`, pauseOrResume(false))
    .get(
      `${DASHBOARD}/schedules/:id/delete`,
      g.page(async ({ params: { id = "" } }, s) => {
        requireScope(s.scopes, "schedules:manage", "deleting a schedule");
        const sc = await owned(s, id);
        return htmlResponse(
          confirmPage({
            viewer: await g.viewerOf(s),
            section: "schedules",
            title: "Delete this schedule?",
            question: html`Delete the schedule <strong>${sc.name}</strong>?`,
            consequence: "No more ticks run, and its history of runs is deleted. The reports it made stay.",
            action: `${DASHBOARD}/schedules/${sc.id}/delete`,
            button: `Delete ${sc.name}`,
            cancel: `${DASHBOARD}/schedules`,
          }),
        );
      }),
    )
    .post(
      `${DASHBOARD}/schedules/:id/delete`,
      g.action(async (c, s) => {
        const id = c.params.id ?? "";
        requireScope(s.scopes, "schedules:manage", "deleting a schedule");
        await d.schedules.delete(g.actorOf(c, s), id);
        return redirect(`${DASHBOARD}/schedules?deleted=${encodeURIComponent(id)}`);
      }),
    )
    .get(
      `${DASHBOARD}/schedules/:id`,
      g.page(async ({ params: { id = "" }, query }, s) => {
        requireScope(s.scopes, "schedules:manage", "a schedule's runs");
        const schedule = await owned(s, id);
        const page = await d.schedules.runs(s.accountId, id, { cursor: query.cursor, limit: 50 });
        return htmlResponse(
          scheduleRunsPage(await g.viewerOf(s), {
            schedule,
            runs: page.items,
            cursor: query.cursor,
            nextCursor: page.nextCursor ?? undefined,
          }),
        );
      }),
    );
}
