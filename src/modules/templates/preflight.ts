// The preflight every save returns (and the editor shows): (a) characters no installed font covers,
// (b) resources the network policy refuses, (c) the sample render's page count and size. Warnings never
// refuse a save: they say what the PDF will look like.
import type { Engine } from "../../db/schema";
import { RenderError } from "../../lib/errors";
import { type AssetInliner, assetNames } from "../assets/resolver";
import { coverage, missingGlyphs, stringsOf } from "./glyphs";
import type { TemplateOptions, Warning } from "./model";
import { blockedResources } from "./resources";
import type { SampleRenderer } from "./sample-renderer";

export interface PreflightDeps {
  allowHosts: readonly string[];
  fontconfigFile?: () => string | undefined;
  renderer: () => SampleRenderer | undefined;
  /** The account's asset library: asset: references it lacks are warned about. */
  assets?: AssetInliner;
}

/**
 * Runs the checks. `sampleJson` is the sample data as JSON text (absent: an EJS template is not rendered);
 * `renderedHtml`, when the caller already rendered (the preview), spares a second render.
 */
export type Preflight = (
  accountId: string,
  engine: Engine,
  template: string,
  sampleJson: string | undefined,
  options: TemplateOptions | null,
  renderedHtml?: string,
) => Promise<{ warnings: Warning[]; html?: string }>;

export function preflightOf(d: PreflightDeps): Preflight {
  return async (accountId, engine, template, sampleJson, options, renderedHtml) => {
    const warnings: Warning[] = [];
    let html = renderedHtml;
    if (html === undefined) {
      const sample = await sampleRender(d.renderer(), accountId, engine, template, sampleJson, options);
      warnings.push(sample.warning);
      html = sample.html;
    }
    const ranges = await coverage(d.fontconfigFile?.());
    const texts = [template, ...(html !== undefined ? [html] : []), ...(sampleJson ? stringsOf(JSON.parse(sampleJson)) : [])];
    if (ranges) warnings.push(...missingGlyphs(ranges, texts));
    else
      warnings.push({
        code: "glyph_check_unavailable",
        message: "fontconfig's fc-list could not be run, so characters were not checked against the installed fonts",
      });
    // The rendered HTML when there is one (URLs built from data count), else the template as written.
    warnings.push(...blockedResources(html ?? template, d.allowHosts));
    if (d.assets) {
      const missing = await d.assets.missing(accountId, assetNames(template, html, options?.header_template, options?.footer_template));
      for (const name of missing)
        warnings.push({
          code: "missing_asset",
          message: `asset:${name} is not in the account's asset library: reports from this template fail with asset_not_found until it is uploaded (POST /api/v1/assets)`,
          asset: name,
        });
    }
    return { warnings, html };
  };
}

async function sampleRender(
  r: SampleRenderer | undefined,
  accountId: string,
  engine: Engine,
  template: string,
  sampleJson: string | undefined,
  options: TemplateOptions | null,
): Promise<{ warning: Warning; html?: string }> {
  if (engine === "ejs" && sampleJson === undefined)
    return {
      warning: {
        code: "sample_not_rendered",
        message: "without sample_data the template was not rendered: give sample_data to learn its page count and size",
      },
    };
  if (!r?.ready)
    return {
      warning: {
        code: "sample_not_rendered",
        message: "this instance runs no renderer (--role api, or Chromium is down), so the sample was not rendered",
      },
    };
  try {
    const out = await r.render(accountId, engine, template, sampleJson ?? "{}", options);
    const size = out.pageSize;
    return {
      html: out.html,
      warning: {
        code: "sample_render",
        message: `the sample renders to ${out.pages} page(s)${size ? ` of ${size.widthMm} × ${size.heightMm} mm` : ""}, ${out.bytes} bytes`,
        pages: out.pages,
        bytes: out.bytes,
        ...(size && { page_width_mm: size.widthMm, page_height_mm: size.heightMm }),
      },
    };
  } catch (e) {
    if (!(e instanceof RenderError)) throw e;
    return {
      warning: {
        code: "sample_render_failed",
        // The failure's own message last: its first line names the cause, and a template error's context lines follow it.
        message: `the sample did not render (a report with this data would fail the same way): ${e.code}: ${e.message}`,
        failure_code: e.code,
      },
    };
  }
}
