// The Templates editor's form: its fields read back into the service's input, with a message per
// field that is not JSON where JSON is needed, and the example a new template opens with.
import type { Engine } from "../../db/schema";
import type { TemplateOptions, TemplateVersion } from "../../modules/templates/model";
import type { Form } from "../guards";
import { exampleInput } from "../pages/playground";
import type { EditorField, EditorInput } from "../pages/template-editor";

export interface ParsedForm {
  input: EditorInput;
  errors: Partial<Record<EditorField, string>>;
  sampleData?: unknown;
  dataSchema?: unknown;
  options?: TemplateOptions;
}

const pretty = (v: unknown) => (v === null || v === undefined ? "" : JSON.stringify(v, null, 2));

/** The editors' text for a stored version. */
export function inputOf(name: string, engine: Engine, v: TemplateVersion): EditorInput {
  return {
    name,
    engine,
    htmlTemplate: v.htmlTemplate,
    sampleData: pretty(v.sampleData),
    dataSchema: pretty(v.dataSchema),
    options: pretty(v.options),
  };
}

export const newTemplateInput: EditorInput = {
  name: "",
  engine: "ejs",
  htmlTemplate: exampleInput.template,
  sampleData: exampleInput.data,
  dataSchema: JSON.stringify(
    {
      $schema: "https://json-schema.org/draft/2020-12/schema",
      type: "object",
      required: ["number", "customer", "items"],
      properties: {
        number: { type: "integer" },
        customer: { type: "string" },
        items: {
          type: "array",
          items: { type: "object", required: ["name", "amount"], properties: { name: { type: "string" }, amount: { type: "number" } } },
        },
      },
    },
    null,
    2,
  ),
  options: JSON.stringify({ format: "A4" }, null, 2),
};

function parseJson(text: string, what: string, errors: ParsedForm["errors"], field: EditorField, object = false): unknown {
  if (!text.trim()) return undefined;
  try {
    const v = JSON.parse(text);
    if (object && (v === null || typeof v !== "object" || Array.isArray(v))) {
      errors[field] = `${what} must be a JSON object, like {"format": "A4"}.`;
      return undefined;
    }
    return v;
  } catch (e) {
    errors[field] = `${what} is not valid JSON: ${(e as Error).message}. Fix it, or empty the field.`;
    return undefined;
  }
}

/** The form as the editor page posts it; `errors` names each field that could not be read. */
export function parseTemplateForm(form: Form, templateMaxLength: number): ParsedForm {
  // Browsers send a textarea's line breaks as CRLF: stored as LF, as the editor and the API have them.
  const text = (v: string | undefined) => (v ?? "").replace(/\r\n?/g, "\n");
  const input: EditorInput = {
    name: text(form.name).trim(),
    engine: form.engine === "raw" ? "raw" : "ejs",
    htmlTemplate: text(form.html_template),
    sampleData: text(form.sample_data),
    dataSchema: text(form.data_schema),
    options: text(form.options),
  };
  const errors: ParsedForm["errors"] = {};
  if (!input.htmlTemplate.trim()) errors.html_template = "Write a template first.";
  else if (input.htmlTemplate.length > templateMaxLength)
    errors.html_template = `The template is ${input.htmlTemplate.length} characters; the limit is ${templateMaxLength}.`;
  const sampleData = parseJson(input.sampleData, "The sample data", errors, "sample_data");
  const dataSchema = parseJson(input.dataSchema, "The schema", errors, "data_schema");
  const options = parseJson(input.options, "The options", errors, "options", true) as TemplateOptions | undefined;
  return { input, errors, sampleData, dataSchema, options };
}

/** Which editor field a service's validation detail is about (its `field` names the API's JSON field). */
export function fieldOfDetail(detail: unknown): EditorField | undefined {
  const field = detail && typeof detail === "object" ? String((detail as { field?: unknown }).field ?? "") : "";
  const top = field.replace(/^\//, "").split(/[./[]/)[0];
  const known: EditorField[] = ["name", "html_template", "sample_data", "data_schema", "options"];
  return known.find((k) => k === top);
}
