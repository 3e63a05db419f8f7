// E-invoices: an uploaded or pasted e-invoice checked (the verdict shown with each broken rule) and,
// with e_invoices:render, printed readable as a report whose PDF the page shows when it is ready. The
// same checker and the same report request as POST /api/v1/e-invoices/validate and /render.
import { Elysia } from "elysia";
import { requireScope } from "../../access/scopes";
import { AppError } from "../../lib/errors";
import { RENDER_LANGUAGES, type RenderLanguage } from "../../modules/e-invoices/labels";
import { renderRequest } from "../../modules/e-invoices/render";
import { type EInvoiceInput, looksLikePdf } from "../../modules/e-invoices/service";
import { DASHBOARD, type DashboardDeps, type Form, type Guards } from "../guards";
import { type EInvoiceForm, eInvoicesPage, verdictPanel } from "../pages/e-invoices";
import { resultPanel } from "../pages/playground";
import { htmlResponse } from "../security";

const formInput = (form: Form): EInvoiceForm => ({
  xml: form.xml ?? "",
  language: (RENDER_LANGUAGES as readonly string[]).includes(form.language ?? "") ? (form.language as RenderLanguage) : "en",
  archive: form.archive === "1",
});

export function eInvoicesRoutes(d: DashboardDeps, g: Guards) {
  return new Elysia({ name: "dashboard-e-invoices" })
    .get(
      `${DASHBOARD}/e-invoices`,
      g.page(async (_c, s) =>
        htmlResponse(
          eInvoicesPage(await g.viewerOf(s), {
            input: { xml: "", language: "en", archive: false },
            canRender: s.scopes.includes("e_invoices:render"),
          }),
        ),
      ),
    )
    .post(
      `${DASHBOARD}/e-invoices`,
      g.action(async (c, s, form) => {
        const viewer = await g.viewerOf(s);
        const canRender = s.scopes.includes("e_invoices:render");
        requireScope(s.scopes, canRender ? "e_invoices:render" : "e_invoices:validate", "checking an e-invoice");
        const input = formInput(form);
        const page = (status: number, o: Omit<Parameters<typeof eInvoicesPage>[1], "input" | "canRender">) =>
          htmlResponse(eInvoicesPage(viewer, { input, canRender, ...o }), status);
        const file = (c.body as Record<string, unknown>).file;
        let doc: EInvoiceInput;
        const field = file instanceof Blob && file.size > 0 ? "file" : "xml";
        if (file instanceof Blob && file.size > 0) {
          const bytes = new Uint8Array(await file.arrayBuffer());
          doc = { kind: looksLikePdf(bytes, file.type) ? "pdf" : "xml", bytes };
        } else if (input.xml.trim()) doc = { kind: "xml", bytes: Buffer.from(input.xml.trim()) };
        else return page(422, { error: { field: "file", text: "Choose a file, or paste the XML." } });
        try {
          if (!canRender) return page(200, { verdict: verdictPanel(await d.eInvoices.validate(doc)) });
          const reading = await d.eInvoices.read(doc);
          const { reportId } = await d.reports.submit(s, renderRequest(reading, { language: input.language, archive: input.archive }));
          return page(200, { verdict: verdictPanel(reading.validation), result: resultPanel(await d.reports.get(s.accountId, reportId)) });
        } catch (e) {
          // The checker's refusals (not XML, hostile, no invoice) and the queue's are shown at the field.
          if (e instanceof AppError && e.status < 500) return page(e.status, { error: { field, text: e.message } });
          throw e;
        }
      }),
    );
}
