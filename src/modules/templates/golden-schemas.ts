// Request and response schemas of golden samples (validated by Elysia, published in OpenAPI).
import { t } from "elysia";
import { SAMPLE_NAME, SAMPLES_MAX } from "./golden";

const link = (what: string) => t.Union([t.String(), t.Null()], { description: `${what}; null for an unchanged page` });

export const comparisonSchema = t.Object(
  {
    status: t.String({
      enum: ["same", "changed"],
      description: "changed: a page of a sample differs, was added or removed, or a render failed",
    }),
    template_id: t.String({ format: "uuid" }),
    version: t.Integer({ minimum: 1, description: "The version compared (after)" }),
    base: t.Integer({ minimum: 1, description: "The version it was compared with (before)" }),
    samples: t.Array(
      t.Object({
        name: t.String(),
        pages_before: t.Integer({ minimum: 0 }),
        pages_after: t.Integer({ minimum: 0 }),
        pages: t.Array(
          t.Object({
            page: t.Integer({ minimum: 1 }),
            changed_ratio: t.Number({
              minimum: 0,
              maximum: 1,
              description: "The share of the page's pixels that differ beyond --golden-tolerance; 1 for a page added or removed",
            }),
            diff: link("A PNG of the new page (96 dpi) faded, with its changed pixels in red (GET it with the same key)"),
            before: link("A PNG of the page with the base version"),
            after: link("A PNG of the page with the compared version"),
          }),
        ),
        error: t.Optional(
          t.Object(
            { version: t.Integer(), code: t.String(), message: t.String() },
            { description: "A render of this sample failed with that version (a report failure code)" },
          ),
        ),
      }),
    ),
    created_at: t.String({ format: "date-time" }),
  },
  {
    examples: [
      {
        status: "changed",
        template_id: "0b7f6c1e-4d7a-4e55-9d1c-3f1c1f0e2a11",
        version: 3,
        base: 2,
        samples: [
          {
            name: "long-invoice",
            pages_before: 2,
            pages_after: 2,
            pages: [
              {
                page: 1,
                changed_ratio: 0.0012,
                diff: "/api/v1/templates/0b7f6c1e-4d7a-4e55-9d1c-3f1c1f0e2a11/pictures/5e1c….png",
                before: "/api/v1/templates/0b7f6c1e-4d7a-4e55-9d1c-3f1c1f0e2a11/pictures/9a02….png",
                after: "/api/v1/templates/0b7f6c1e-4d7a-4e55-9d1c-3f1c1f0e2a11/pictures/c3d7….png",
              },
              { page: 2, changed_ratio: 0, diff: null, before: null, after: null },
            ],
          },
        ],
        created_at: "2026-12-06T21:00:00.000Z",
      },
    ],
  },
);

export const sampleBody = t.Object(
  {
    name: t.String({
      pattern: SAMPLE_NAME,
      description: "1-64 letters, digits, dots, dashes or underscores; saving under an existing name replaces its data",
    }),
    data: t.Optional(t.Any({ description: "The data the template renders (a JSON object within the data limits; default {})" })),
  },
  {
    additionalProperties: false,
    examples: [{ name: "long-invoice", data: { number: "2026-0042", lines: [{ item: "Consulting", price: 1200 }] } }],
  },
);

export const sampleSchema = t.Object({ name: t.String(), data: t.Any(), created_at: t.String({ format: "date-time" }) });
export const samplesSchema = t.Object({ data: t.Array(sampleSchema, { description: `By name; at most ${SAMPLES_MAX}` }) });

export const compareBody = t.Object(
  { base: t.Optional(t.Integer({ minimum: 1, description: "The version to compare with (default: the template's default version)" })) },
  { additionalProperties: false, examples: [{ base: 2 }] },
);

export const sampleParams = t.Object({
  templateID: t.String({ description: "template_id (UUID)" }),
  name: t.String({ description: "The sample's name" }),
});
export const pictureParams = t.Object({
  templateID: t.String({ description: "template_id (UUID)" }),
  picture: t.String({ description: "The picture's name as a comparison links it (<sha256>.png)" }),
});
