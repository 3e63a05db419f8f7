// Destinations: where reports are delivered (options.deliver): an S3 bucket, an SFTP server, e-mail
// recipients; and the delivery worker that sends each report's PDF there from a durable queue.
import type { FeatureModule } from "../../app/module";
import { destinationsRoutes as destinationsPages } from "../../dashboard/routes/destinations";
import { destinations, reportDeliveries } from "../../db/schema";
import { destinationsRoutes } from "./index";
import { deliveryJson } from "./model";
import { DestinationsRepo } from "./repo";
import { DestinationsService } from "./service";
import { DeliveryWorker } from "./worker";

/** Its scopes, and what each allows. */
const SCOPES = {
  "destinations:manage":
    "Create, list, change, test and delete the account's delivery destinations (S3, SFTP, e-mail). Naming one in options.deliver needs only reports:write.",
} as const;

declare module "../../access/scopes" {
  interface ScopeNames extends Record<keyof typeof SCOPES, true> {}
}

/** The audit events it records, with the label the dashboard's audit page shows. */
const AUDIT_EVENTS = {
  "destination.created": "Destination created",
  "destination.updated": "Destination changed",
  "destination.deleted": "Destination deleted",
  "destination.tested": "Destination tested",
} as const;

declare module "../audit/model" {
  interface AuditEventNames extends Record<keyof typeof AUDIT_EVENTS, true> {}
}

declare module "../../app/services" {
  interface ModuleServices {
    /** The accounts' destinations (options.deliver names them). */
    destinations: DestinationsService;
    /** Sends reports to their destinations from the durable queue (started with the App). */
    deliveryWorker: DeliveryWorker;
  }
}

export const destinationsModule: FeatureModule = {
  name: "destinations",
  tables: [destinations, reportDeliveries],
  scopes: SCOPES,
  auditEvents: AUDIT_EVENTS,
  routes: {
    "POST /api/v1/destinations": "destinations:manage",
    "GET /api/v1/destinations": "destinations:manage",
    "GET /api/v1/destinations/:destinationID": "destinations:manage",
    "PATCH /api/v1/destinations/:destinationID": "destinations:manage",
    "DELETE /api/v1/destinations/:destinationID": "destinations:manage",
    "POST /api/v1/destinations/:destinationID/test": "destinations:manage",
    // Its dashboard pages.
    "GET /dashboard/destinations": "dashboard",
    "POST /dashboard/destinations": "dashboard",
    "POST /dashboard/destinations/:id/test": "dashboard",
    "GET /dashboard/destinations/:id/delete": "dashboard",
    "POST /dashboard/destinations/:id/delete": "dashboard",
  },
  services: ({ config: c, sql, logger, services: s, sealFor }) => {
    const repo = new DestinationsRepo(sql, s.backend.owner);
    const service = new DestinationsService(repo, sealFor("reportgen destination secrets v1"), s.audit, {
      allowHosts: c.destinationAllowHosts,
      timeoutMs: c.deliveryTimeout,
      smtp: { url: c.smtpUrl, from: c.smtpFrom, attachMax: c.emailAttachMax },
    });
    const worker = new DeliveryWorker(repo, service, s.repos.reports, s.files, s.links, {
      retryWindowMs: c.deliveryRetryWindow,
      retryBaseMs: c.deliveryRetryBase,
      concurrency: 8,
      logger,
      sole: s.backend.kind === "sqlite",
      // Signed like the report's other events, to the webhook it was submitted with (if any).
      onFinished: (d, end) =>
        s.repos.webhooks.queueDeliveryEvent(
          d.reportId,
          end.status === "delivered" ? "report.delivered" : "report.delivery_failed",
          deliveryJson(d, end),
          end.at,
        ),
    });
    s.reports.deliverWith(service);
    // A finished report's deliveries are due at once (other instances' by the worker's idle poll).
    s.reports.events.onFinished(worker.notify);
    return { destinations: service, deliveryWorker: worker };
  },
  start: ({ services: s }) => s.deliveryWorker.start(),
  stop: (s) => s.deliveryWorker.stop(),
  api: ({ services: s, guard }) => destinationsRoutes(s.destinations, guard),
  dashboard: [{ nav: { id: "destinations", href: "/dashboard/destinations", label: "Destinations", order: 65 }, pages: destinationsPages }],
};
