// Playground: a template and data submitted like POST /generate-pdf-async, its result shown in the page.

import { Elysia } from "elysia";
import { requireScope } from "../../access/scopes";
import type { Engine } from "../../db/schema";
import { AppError } from "../../lib/errors";
import { type PaperFormat, paperFormats } from "../../pdf/options";
import { DASHBOARD, type DashboardDeps, type Form, type Guards } from "../guards";
import type { Notice } from "../pages/common";
import { exampleInput, type PlaygroundInput, playgroundPage, resultPanel } from "../pages/playground";
import { htmlResponse } from "../security";
import type { Session } from "../sessions";

export function playgroundRoutes(d: DashboardDeps, g: Guards) {
  const playgroundResult = async (s: Session, id: string) => {
    const r = await d.reports.get(s.accountId, id);
    if (r.status !== "succeeded") return resultPanel(r);
    // A fresh, relative signed link: the frame loads from the origin the browser uses for the dashboard.
    const answer = await d.reports.download(s.accountId, id, "").catch(() => undefined);
    return resultPanel(r, answer?.ready ? answer.url : undefined);
  };

  return new Elysia({ name: "dashboard-playground" })
    .get(
      `${DASHBOARD}/playground`,
      g.page(async (_c, s) =>
        htmlResponse(playgroundPage(await g.viewerOf(s), { input: exampleInput, templateMaxLength: d.templateMaxLength })),
      ),
    )
    .post(
      `${DASHBOARD}/playground`,
      g.action(async (_c, s, form) => {
        const viewer = await g.viewerOf(s);
        const input = playgroundInput(form);
        const errors: { template?: string; data?: string } = {};
        if (!input.template.trim()) errors.template = "Write a template first.";
        else if (input.template.length > d.templateMaxLength)
          errors.template = `The template is ${input.template.length} characters; the limit is ${d.templateMaxLength}.`;
        let data: unknown;
        if (input.engine === "ejs") {
          try {
            data = JSON.parse(input.data.trim() || "{}");
          } catch (e) {
            errors.data = `Not valid JSON: ${(e as Error).message}`;
          }
        }
        const again = (status: number, message?: Notice) =>
          htmlResponse(playgroundPage(viewer, { input, errors, message, templateMaxLength: d.templateMaxLength }), status);
        if (errors.template || errors.data) return again(422, { kind: "error", text: "Fix the marked fields, then render again." });
        try {
          requireScope(s.scopes, "reports:write", "rendering in the playground");
          const { reportId } = await d.reports.submit(s, {
            engine: input.engine,
            html_template: input.template,
            data,
            options: { format: input.format, landscape: input.landscape },
          });
          return htmlResponse(
            playgroundPage(viewer, { input, templateMaxLength: d.templateMaxLength, result: await playgroundResult(s, reportId) }),
          );
        } catch (e) {
          // The API's own refusals (data limits, full queues) are shown next to the form.
          if (e instanceof AppError) {
            if (e.status === 422 || e.status === 400) errors.data = e.message;
            return again(e.status, { kind: "error", text: e.message });
          }
          throw e;
        }
      }),
    )
    .get(
      `${DASHBOARD}/playground/result/:id`,
      g.fragment(({ params: { id = "" } }, s) => playgroundResult(s, id)),
    );
}

function playgroundInput(form: Form): PlaygroundInput {
  const engine: Engine = form.engine === "raw" ? "raw" : "ejs";
  const format = paperFormats.includes(form.format as PaperFormat) ? (form.format as PaperFormat) : "A4";
  return { engine, template: form.template ?? "", data: form.data ?? "", format, landscape: form.landscape === "1" };
}
