// Request and response schemas of the /templates routes (validated by Elysia, published in OpenAPI).
import { t } from "elysia";
import { engines } from "../../db/schema";
import { named } from "../../http/openapi-names";
import { oneOf, pageQueryFields } from "../../http/schema";
import { pdfOptionsSchema } from "../../pdf/options-schema";
import { warningCodes } from "./model";

const INVOICE = `<h1>Invoice <%= number %></h1>
<table><% for (const l of lines) { %><tr><td><%= l.item %></td><td><%= l.price.toFixed(2) %></td></tr><% } %></table>`;
const SCHEMA_EXAMPLE = {
  type: "object",
  required: ["number", "lines"],
  properties: {
    number: { type: "string" },
    lines: {
      type: "array",
      items: { type: "object", required: ["item", "price"], properties: { item: { type: "string" }, price: { type: "number" } } },
    },
  },
};
const SAMPLE_EXAMPLE = { number: "2026-0042", lines: [{ item: "Consulting", price: 1200 }] };

const versionFields = (templateMaxLength: number) => ({
  html_template: t.String({
    minLength: 1,
    maxLength: templateMaxLength,
    description: "HTML; with engine ejs it may contain EJS tags such as <%= name %>. The same limit as an inline template",
  }),
  data_schema: t.Optional(
    t.Any({
      description:
        "JSON Schema (draft 2020-12) that the data of every generation request must match; checked when saved (an invalid or unusable schema is 422, " +
        "its details naming the place, e.g. data_schema.$schema). pattern and patternProperties use RE2 syntax: no backreferences or lookaround. " +
        "Each check must finish within the server's --schema-timeout (2 s by default): past it, 422 naming data_schema. engine ejs only",
    }),
  ),
  sample_data: t.Optional(
    t.Any({
      description: "Example data: must match data_schema; rendered by the preflight to report page count and size. engine ejs only",
    }),
  ),
  options: t.Optional(pdfOptionsSchema),
});

export function createTemplateBody(templateMaxLength: number) {
  return t.Object(
    {
      name: t.String({ minLength: 1, maxLength: 200, description: "A label for people; need not be unique" }),
      engine: oneOf(engines, { description: "Fixed for every version of the template" }),
      ...versionFields(templateMaxLength),
      require_approval: t.Optional(
        t.Boolean({
          description:
            "Golden samples: a version whose comparison with its samples changed pages becomes the default only once approved (default false)",
        }),
      ),
    },
    {
      additionalProperties: false,
      examples: [
        {
          name: "Invoice",
          engine: "ejs",
          html_template: INVOICE,
          data_schema: SCHEMA_EXAMPLE,
          sample_data: SAMPLE_EXAMPLE,
          options: { format: "A4" },
        },
      ],
    },
  );
}

export function versionBody(templateMaxLength: number) {
  return t.Object(versionFields(templateMaxLength), {
    additionalProperties: false,
    examples: [
      { html_template: INVOICE.replace("<h1>", '<h1 style="color:#234">'), data_schema: SCHEMA_EXAMPLE, sample_data: SAMPLE_EXAMPLE },
    ],
  });
}

export const warningSchema = t.Object(
  {
    code: t.String({ enum: [...warningCodes] }),
    message: t.String({ description: "What the PDF will look like and what to change" }),
  },
  {
    additionalProperties: true,
    description:
      "A preflight finding. missing_glyphs has characters[] ({char, code_point, count}); blocked_resource has resources[] ({url, reason}); " +
      "sample_render has pages, bytes, page_width_mm and page_height_mm (the first page's); sample_render_failed has failure_code (a report failure code)",
    examples: [
      {
        code: "sample_render",
        message: "the sample renders to 1 page(s) of 210 × 297 mm, 14210 bytes",
        pages: 1,
        bytes: 14210,
        page_width_mm: 210,
        page_height_mm: 297,
      },
      {
        code: "missing_glyphs",
        message: "1 character(s) are in no installed font and would print as empty boxes: U+E000. …",
        characters: [{ char: "\uE000", code_point: "U+E000", count: 1 }],
      },
    ],
  },
);

export const templateSchema = named(
  "Template",
  t.Object({
    template_id: t.String({ format: "uuid" }),
    name: t.String(),
    engine: oneOf(engines),
    latest_version: t.Integer({ minimum: 1 }),
    default_version: t.Integer({
      minimum: 1,
      description:
        "What generation requests without template_version render: the latest, or with require_approval the last approved version",
    }),
    require_approval: t.Boolean(),
    created_at: t.String({ format: "date-time" }),
    updated_at: t.String({ format: "date-time", description: "When the template last changed" }),
  }),
);

export const patchTemplateBody = t.Object(
  {
    require_approval: t.Boolean({ description: "Turned on, the default version stays the one in use until a changed version is approved" }),
  },
  { additionalProperties: false, examples: [{ require_approval: true }] },
);

export const versionSchema = named(
  "TemplateVersion",
  t.Object({
    template_id: t.String({ format: "uuid" }),
    version: t.Integer({ minimum: 1 }),
    html_template: t.String(),
    data_schema: t.Any({ description: "The JSON Schema, or null" }),
    sample_data: t.Any({ description: "The sample data, or null" }),
    options: t.Any({ description: "The default options of generation requests, or null" }),
    warnings: t.Array(warningSchema, { description: "The preflight's findings when this version was saved" }),
    created_at: t.String({ format: "date-time" }),
  }),
);

export const createdSchema = t.Object({
  template_id: t.String({ format: "uuid" }),
  version: t.Integer({ minimum: 1 }),
  warnings: t.Array(warningSchema),
});

export const templateIdParams = t.Object({ templateID: t.String({ description: "template_id (UUID)" }) });
export const versionParams = t.Object({
  templateID: t.String({ description: "template_id (UUID)" }),
  version: t.String({ description: "Version number, from 1 (anything else is 404)" }),
});

export const listTemplatesQuery = t.Object(pageQueryFields("Templates", 20));
