// The JSON shapes of POST /api/v1/e-invoices/validate: the JSON body and the answer (TypeBox, for the
// OpenAPI document and the response check).
import { t } from "elysia";
import { named } from "../../http/openapi-names";

export const RULES_HELP =
  "The rule sets to apply, comma-separated: `en16931`, `xrechnung`, `peppol` (EN 16931 is always applied). By default, those the document's specification identifier (BT-24: UBL CustomizationID, CII guideline parameter) names.";

const issueSchema = t.Object({
  rule: t.String({ description: "The official rule id, e.g. BR-CO-15, BR-DE-15, PEPPOL-EN16931-R010" }),
  message: t.String({ description: "What the rule requires, as the official artefacts say it" }),
  location: t.String({ description: "An XPath to the element concerned" }),
});

export const validationSchema = named(
  "EInvoiceValidation",
  t.Object({
    valid: t.Boolean({ description: "true when no rule with flag fatal is broken" }),
    syntax: t.Union([t.Literal("cii"), t.Literal("ubl")]),
    document: t.Union([t.Literal("invoice"), t.Literal("credit_note")]),
    customization: t.Nullable(t.String({ description: "The specification identifier (BT-24) the document names" })),
    rules: t.Array(
      t.Object({
        id: t.Union([t.Literal("en16931"), t.Literal("xrechnung"), t.Literal("peppol")]),
        version: t.String({ description: "The official artefacts' release our rules follow" }),
      }),
      { description: "Each rule set checked" },
    ),
    errors: t.Array(issueSchema, { description: "Fatal findings: the invoice is not valid" }),
    warnings: t.Array(issueSchema, { description: "Warnings: the invoice stays valid" }),
  }),
);
