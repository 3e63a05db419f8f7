// Schedules: stored templates rendered on a cron schedule (issue 45), run exactly once per tick across
// instances, with a history of runs.
import type { FeatureModule } from "../../app/module";
import { schedulesRoutes as schedulesPages } from "../../dashboard/routes/schedules";
import { scheduleRuns, schedules } from "../../db/schema";
import { checkWebhookUrl, webhookPolicy } from "../webhooks/target";
import { fetchData } from "./data-url";
import { schedulesDescription, schedulesWebhooks } from "./docs";
import { RunFailedEvents } from "./events";
import { SchedulesRepo } from "./repo";
import { schedulesRoutes } from "./routes";
import { SchedulesService } from "./service";
import { submitterOf } from "./submitter";
import { ScheduleTicker } from "./ticker";

/** Its scopes, and what each allows. */
const SCOPES = {
  "schedules:manage":
    "Create, list, change, pause and delete the account's schedules (stored templates rendered on a cron schedule), and read their runs.",
} as const;

declare module "../../access/scopes" {
  interface ScopeNames extends Record<keyof typeof SCOPES, true> {}
}

/** The audit events it records, with the label the dashboard's audit page shows. */
const AUDIT_EVENTS = {
  "schedule.created": "Schedule created",
  "schedule.updated": "Schedule changed",
  "schedule.paused": "Schedule paused",
  "schedule.resumed": "Schedule resumed",
  "schedule.deleted": "Schedule deleted",
} as const;

declare module "../audit/model" {
  interface AuditEventNames extends Record<keyof typeof AUDIT_EVENTS, true> {}
}

declare module "../../app/services" {
  interface ModuleServices {
    /** The account's schedules (the API and dashboard). */
    schedules: SchedulesService;
    /** Runs the due ticks (every instance; each tick once). */
    scheduleTicker: ScheduleTicker;
  }
}

export const schedulesModule: FeatureModule = {
  name: "schedules",
  tables: [schedules, scheduleRuns],
  auditEvents: AUDIT_EVENTS,
  scopes: SCOPES,
  routes: {
    "POST /api/v1/schedules": "schedules:manage",
    "GET /api/v1/schedules": "schedules:manage",
    "GET /api/v1/schedules/:scheduleID": "schedules:manage",
    "PATCH /api/v1/schedules/:scheduleID": "schedules:manage",
    "DELETE /api/v1/schedules/:scheduleID": "schedules:manage",
    "GET /api/v1/schedules/:scheduleID/runs": "schedules:manage",
    // Its dashboard pages.
    "GET /dashboard/schedules": "dashboard",
    "POST /dashboard/schedules": "dashboard",
    "GET /dashboard/schedules/:id": "dashboard",
    "POST /dashboard/schedules/:id/pause": "dashboard",
    "POST /dashboard/schedules/:id/resume": "dashboard",
    "GET /dashboard/schedules/:id/delete": "dashboard",
    "POST /dashboard/schedules/:id/delete": "dashboard",
  },
  services: ({ config: c, sql, logger, services: s }) => {
    const repo = new SchedulesRepo(sql);
    const policy = webhookPolicy(c);
    const events = new RunFailedEvents(repo, s.webhookSecrets, { ...policy, logger });
    const ticker = new ScheduleTicker(
      repo,
      {
        fetchData: (url) => fetchData(url, { allowHosts: policy.allowHosts, maxBytes: c.dataMaxSize, timeoutMs: policy.timeoutMs }),
        submit: async (sc, data, options) =>
          s.reports.submit(
            await submitterOf(sc, s.repos.keys, Date.now()),
            {
              template_id: sc.templateId,
              template_version: sc.templateVersion ?? undefined,
              data,
              options: options as never,
              webhook: sc.webhookUrl ? { url: sc.webhookUrl } : undefined,
            },
            c.publicUrl,
          ),
      },
      events,
      logger,
    );
    const service = new SchedulesService(repo, s.templates, s.audit, {
      checkUrl: (url, field) => checkWebhookUrl(url, { allowHosts: policy.allowHosts, field }),
      changed: ticker.wake,
    });
    return { schedules: service, scheduleTicker: ticker };
  },
  start: ({ services: s }) => s.scheduleTicker.start(),
  stop: (s) => s.scheduleTicker.stop(),
  api: ({ services: s, guard }) => schedulesRoutes(s.schedules, guard, (id) => s.destinations.log(id)),
  docs: { description: schedulesDescription, webhooks: schedulesWebhooks },
  dashboard: [{ nav: { id: "schedules", href: "/dashboard/schedules", label: "Schedules", order: 25 }, pages: schedulesPages }],
};
