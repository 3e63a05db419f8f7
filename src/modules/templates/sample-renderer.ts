// Renders one document with no report row, through the service's own EJS sandboxes, Chromium pool and
// PDF limits (the path `reportgen render` takes, src/cli/render.ts): the preflight's sample render and the
// editor's live preview. The App hands one to TemplatesService when it runs a renderer.
import type { Engine } from "../../db/schema";
import { checkPdfLimits } from "../../render/pdf-limits";
import type { RenderPool } from "../../render/pool";
import type { TemplatingPool } from "../../render/templating";
import { resolvePdfOptions } from "../reports/service";
import type { TemplateOptions } from "./model";

export interface SampleRender {
  html: string;
  pdf: Uint8Array;
  pages: number;
  bytes: number;
}

export interface SampleRenderer {
  /** True while Chromium and a sandbox are up. */
  readonly ready: boolean;
  /** Rejects with a RenderError (the report failure codes) when the template or the renderer fails. */
  render(engine: Engine, template: string, dataJson: string, options: TemplateOptions | null): Promise<SampleRender>;
}

export function sampleRenderer(
  templating: TemplatingPool,
  pool: RenderPool,
  limits: { maxPages: number; maxPdfSize: number },
): SampleRenderer {
  return {
    get ready() {
      return pool.usable && templating.usable;
    },
    async render(engine, template, dataJson, options) {
      const html = engine === "ejs" ? await templating.render(template, dataJson) : template;
      // Post-processing (watermark, encryption, …) is left out: it does not change the pages or their text.
      const pdf = await pool.render({ html, options: resolvePdfOptions(options ? JSON.stringify(options) : null) });
      return { html, pdf, ...checkPdfLimits(pdf, limits) };
    },
  };
}
