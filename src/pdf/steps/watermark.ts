// options.watermark: a line of text laid over (or under) every page, drawn by overlay-pdf.ts.
import { type LayerPosition, WATERMARK_DEFAULTS } from "../options";
import { watermarkPdf } from "../overlay-pdf";
import type { QpdfStep } from "../step";
import { watermarkFont } from "../watermark-font";
import { layer } from "./layer";

export interface WatermarkParams {
  text: string;
  opacity: number;
  angle: number;
  position: LayerPosition;
  /** Draw in an embedded font (PDF/A forbids the standard Helvetica that is not embedded). */
  embedFont: boolean;
}

export const watermark: QpdfStep<WatermarkParams, string> = {
  name: "watermark",
  tool: "qpdf",
  plan: ({ options: o, options: { watermark: w } }) =>
    w && {
      text: w.text,
      opacity: w.opacity ?? WATERMARK_DEFAULTS.opacity,
      angle: w.angle ?? WATERMARK_DEFAULTS.angle,
      position: w.position ?? WATERMARK_DEFAULTS.position,
      embedFont: o.pdfa !== undefined,
    },
  // Shared by every report with the same drawing on the same page size: a batch carries the same
  // watermark on every report.
  prepare: async (w, ctx) => {
    const size = await ctx.pageSize();
    const key = JSON.stringify([w.text, w.opacity, w.angle, Math.round(size.width), Math.round(size.height), w.embedFont]);
    const font = w.embedFont ? await watermarkFont() : undefined;
    return ctx.sharedFile(key, () => watermarkPdf(w, size, font));
  },
  job: (w, file) => layer(w.position, file),
};
