// Stored templates: the shapes services and routes share, and their snake_case JSON form.
import type { Engine } from "../../db/schema";
import { iso } from "../../lib/time";
import type { RequestOptions } from "../../pdf/options";
import type { Actor as AuditActor } from "../audit/model";

/** Who changes a template: a key (API or dashboard) or the CLI, as the audit trail records it. */
export type Actor = Exclude<AuditActor, { kind: "anonymous" }>;

/** The print options a version stores as defaults (the `options` of a generation request, without webhook). */
export type TemplateOptions = RequestOptions;

/** A preflight finding: a stable code, a sentence saying what to change, and fields that depend on the code. */
export interface Warning {
  code: WarningCode;
  message: string;
  [field: string]: unknown;
}

export const warningCodes = [
  "missing_glyphs",
  "blocked_resource",
  "sample_render",
  "sample_render_failed",
  "sample_not_rendered",
  "glyph_check_unavailable",
  "missing_asset",
] as const;
export type WarningCode = (typeof warningCodes)[number];

export interface TemplateSummary {
  id: string;
  accountId: string;
  name: string;
  engine: Engine;
  latestVersion: number;
  createdAt: number;
  updatedAt: number;
  /** Golden samples: a version whose comparison changed pages becomes the default only when approved. */
  requireApproval: boolean;
  /** The last approved version (null: none yet, the latest is the default). */
  approvedVersion: number | null;
}

/** The version generation requests without template_version render: the last approved one while approval is required. */
export const defaultVersion = (t: TemplateSummary) => (t.requireApproval ? (t.approvedVersion ?? t.latestVersion) : t.latestVersion);

export interface TemplateVersion {
  templateId: string;
  version: number;
  htmlTemplate: string;
  dataSchema: unknown;
  sampleData: unknown;
  options: TemplateOptions | null;
  warnings: Warning[];
  createdAt: number;
}

export interface CreateTemplateInput {
  name: string;
  engine: Engine;
  htmlTemplate: string;
  dataSchema?: unknown;
  sampleData?: unknown;
  options?: TemplateOptions;
  requireApproval?: boolean;
}

export type VersionInput = Omit<CreateTemplateInput, "name" | "engine" | "requireApproval">;

export interface TemplateDetail {
  template: TemplateSummary;
  latest: TemplateVersion;
  versions: { version: number; createdAt: number }[];
}

export const toTemplateJson = (t: TemplateSummary) => ({
  template_id: t.id,
  name: t.name,
  engine: t.engine,
  latest_version: t.latestVersion,
  default_version: defaultVersion(t),
  require_approval: t.requireApproval,
  created_at: iso(t.createdAt)!,
  updated_at: iso(t.updatedAt)!,
});

export const toVersionJson = (v: TemplateVersion) => ({
  template_id: v.templateId,
  version: v.version,
  html_template: v.htmlTemplate,
  data_schema: v.dataSchema ?? null,
  sample_data: v.sampleData ?? null,
  options: v.options ?? null,
  warnings: v.warnings,
  created_at: iso(v.createdAt)!,
});
