// E-invoices: checking an incoming e-invoice (POST /api/v1/e-invoices/validate) by the EN 16931,
// XRechnung and Peppol rules, in a pool of worker threads, and printing it readable as a report
// (POST /api/v1/e-invoices/render). Writing e-invoices is the reports module's
// (options.e_invoice); both apply the one rule set of src/einvoice/.
import { availableParallelism } from "node:os";
import { Elysia } from "elysia";
import type { FeatureModule } from "../../app/module";
import { eInvoicesRoutes as eInvoicesPages } from "../../dashboard/routes/e-invoices";
import { eInvoiceSchema } from "../../einvoice/model";
import { eInvoicesRoutes, RAW_TYPES } from "./routes";
import { eInvoiceRenderRoutes } from "./routes-render";
import { EInvoiceChecker } from "./service";

/** Its scopes, and what each allows. */
const SCOPES = {
  "e_invoices:validate":
    "Check incoming e-invoices (UBL, CII, Factur-X/ZUGFeRD) by the EN 16931, XRechnung and Peppol rules; reads and stores no account data.",
  "e_invoices:render":
    "Print incoming e-invoices readable (UBL, CII, Factur-X/ZUGFeRD): each is checked and queued as a report, counted like generate-pdf-async.",
} as const;

declare module "../../access/scopes" {
  interface ScopeNames extends Record<keyof typeof SCOPES, true> {}
}

declare module "../../app/services" {
  interface ModuleServices {
    /** Checks incoming e-invoices in its worker threads. */
    eInvoices: EInvoiceChecker;
  }
}

export const eInvoicesModule: FeatureModule = {
  name: "e-invoices",
  scopes: SCOPES,
  routes: {
    // The document itself may be the body (XML or PDF), besides JSON and multipart.
    "POST /api/v1/e-invoices/validate": { access: "e_invoices:validate", multipart: true, raw: RAW_TYPES },
    // A report like generate-pdf-async's: the key's daily quota applies.
    "POST /api/v1/e-invoices/render": { access: "e_invoices:render", quota: true, multipart: true, raw: RAW_TYPES },
    // Its dashboard page.
    "GET /dashboard/e-invoices": "dashboard",
    "POST /dashboard/e-invoices": "dashboard",
  },
  // One core is left to the event loop (a thread per core starved it: /livez p99 464 ms with 10 large
  // invoices at once on 2 cores, tests/process/e-invoice-event-loop.test.ts); a queue holds the rest.
  dashboard: [{ nav: { id: "e-invoices", href: "/dashboard/e-invoices", label: "E-invoices", order: 45 }, pages: eInvoicesPages }],
  services: ({ config: c }) => ({
    eInvoices: new EInvoiceChecker({
      qpdfPath: c.qpdfPath,
      timeoutMs: c.renderTimeout,
      threads: Math.max(1, availableParallelism() - 1),
      nice: c.renderNice,
    }),
  }),
  start: ({ services: s }) => s.eInvoices.start(),
  stop: (s) => s.eInvoices.stop(),
  api: ({ services: s, guard, originOf }) =>
    new Elysia({ name: "e-invoices" })
      .use(eInvoicesRoutes(s.eInvoices, guard))
      .use(eInvoiceRenderRoutes(s.eInvoices, s.reports, guard, originOf)),
  // The e-invoice model of options.e_invoice, as the e-invoice check validates it (src/einvoice/model.ts).
  docs: { schemas: [eInvoiceSchema] },
};
