// Renders one document with no report row, through the service's own EJS sandboxes, Chromium pool and
// PDF limits (the path `reportgen render` takes, src/cli/render.ts): the preflight's sample render and the
// editor's live preview. The App hands one to TemplatesService when it runs a renderer.
import type { Engine } from "../../db/schema";
import { resolvePdfOptions } from "../../pdf/options";
import { checkPdfLimits } from "../../render/pdf-limits";
import type { RenderPool } from "../../render/pool";
import type { TemplatingPool } from "../../render/templating";
import type { AssetInliner } from "../assets/resolver";
import type { TemplateOptions } from "./model";

export interface SampleRender {
  html: string;
  pdf: Uint8Array;
  pages: number;
  bytes: number;
  /** The first page's size in millimetres (from its MediaBox), when it can be read. */
  pageSize?: { widthMm: number; heightMm: number };
}

/**
 * The first page's MediaBox in millimetres. Chromium writes page dictionaries uncompressed (outside
 * streams), as countPdfPages() relies on too; the first MediaBox in the file is the first page's or its
 * parent's, which Chromium gives every page the same unless the template's CSS sets sizes per page.
 */
export function firstPageSize(pdf: Uint8Array): { widthMm: number; heightMm: number } | undefined {
  const text = Buffer.from(pdf.buffer, pdf.byteOffset, pdf.byteLength).toString("latin1");
  const m = /\/MediaBox\s*\[\s*(-?[\d.]+)\s+(-?[\d.]+)\s+(-?[\d.]+)\s+(-?[\d.]+)\s*\]/.exec(text);
  if (!m) return undefined;
  const mm = (pt: number) => Math.round((pt / 72) * 25.4 * 10) / 10;
  return { widthMm: mm(Number(m[3]) - Number(m[1])), heightMm: mm(Number(m[4]) - Number(m[2])) };
}

export interface SampleRenderer {
  /** True while Chromium and a sandbox are up. */
  readonly ready: boolean;
  /** Rejects with a RenderError (the report failure codes) when the template or the renderer fails. */
  render(accountId: string, engine: Engine, template: string, dataJson: string, options: TemplateOptions | null): Promise<SampleRender>;
}

export function sampleRenderer(
  templating: TemplatingPool,
  pool: RenderPool,
  limits: { maxPages: number; maxPdfSize: number },
  assets?: AssetInliner,
): SampleRenderer {
  return {
    get ready() {
      return pool.usable && templating.usable;
    },
    async render(accountId, engine, template, dataJson, options) {
      const html = engine === "ejs" ? await templating.render(template, dataJson) : template;
      const resolved = resolvePdfOptions(options ? JSON.stringify(options) : null);
      // The account's assets, as a report would have them (asset_not_found when one is missing).
      const page = assets
        ? await assets.inline(accountId, { html, headerTemplate: resolved.headerTemplate, footerTemplate: resolved.footerTemplate })
        : { html };
      // Post-processing (watermark, encryption, …) is left out: it does not change the pages or their text.
      const pdf = await pool.render({
        html: page.html,
        options: { ...resolved, headerTemplate: page.headerTemplate, footerTemplate: page.footerTemplate },
      });
      return { html, pdf, ...checkPdfLimits(pdf, limits), pageSize: firstPageSize(pdf) };
    },
  };
}
