// The template of a generation request: inline (html_template + engine) or stored (template_id and
// optionally template_version), exactly one; a stored version's options are defaults the request overrides.
import type { Engine } from "../../db/schema";
import { validationFailed } from "../../lib/errors";
import { mergeOptions, type RequestOptions } from "../../pdf/options";
import type { TemplateSource } from "../templates/service";

/** What a generation request says about its template, data and options (reports/service.ts's GenerateInput). */
export interface TemplateChoice {
  html_template?: string;
  engine?: Engine;
  template_id?: string;
  template_version?: number;
  data?: unknown;
  options?: RequestOptions;
}

/**
 * The request's template: inline, or a stored version whose data is checked against its schema before
 * anything is queued, with the version's options as defaults that the request's override field by field.
 */
export async function resolveTemplateChoice(
  templates: TemplateSource | undefined,
  accountId: string,
  input: TemplateChoice,
): Promise<{
  engine: Engine;
  template: string;
  options?: RequestOptions;
  templateId?: string;
  templateVersion?: number;
  /** The data as JSON text, when the stored version's schema check already produced it. */
  dataJson?: string;
}> {
  const inline = input.html_template !== undefined;
  const stored = input.template_id !== undefined;
  if (inline === stored)
    throw validationFailed(
      inline
        ? "give either html_template (with engine) or template_id, not both"
        : "give html_template with engine (an inline template), or template_id (a stored template)",
      [
        {
          field: inline ? "template_id" : "html_template",
          problem: inline ? "not allowed with html_template" : "html_template or template_id is required",
        },
      ],
    );
  if (inline) {
    if (input.template_version !== undefined)
      throw validationFailed("template_version goes with template_id", [{ field: "template_version", problem: "only with template_id" }]);
    if (!input.engine)
      throw validationFailed("engine is required with html_template: ejs or raw", [{ field: "engine", problem: "required" }]);
    return { engine: input.engine, template: input.html_template!, options: input.options };
  }
  if (!templates) throw new Error("ReportsService was built without templates");
  const t = await templates.forSubmission(accountId, input.template_id!, input.template_version, input.data);
  if (input.engine !== undefined && input.engine !== t.engine)
    throw validationFailed(`the template's engine is ${t.engine}: leave engine out, or send ${t.engine}`, [
      { field: "engine", problem: `the template's engine is ${t.engine}` },
    ]);
  return {
    engine: t.engine,
    template: t.htmlTemplate,
    options: mergeOptions(t.options ?? undefined, input.options),
    templateId: t.templateId,
    templateVersion: t.version,
    dataJson: t.dataJson,
  };
}
