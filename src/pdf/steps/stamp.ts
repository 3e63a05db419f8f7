// options.stamp: another report's PDF, or a JPEG, laid over (or under) every page.

import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { decodeBase64, jpegSize } from "../option-problems";
import { type LayerPosition, STAMP_DEFAULT_OPACITY } from "../options";
import { jpegStampPdf } from "../overlay-pdf";
import type { QpdfStep } from "../step";
import { layer } from "./layer";

export type StampParams =
  | { kind: "report"; reportId: string; position: LayerPosition }
  | { kind: "jpeg"; bytes: Uint8Array; opacity: number; position: LayerPosition };

export const stamp: QpdfStep<StampParams, string> = {
  name: "stamp",
  tool: "qpdf",
  plan: ({ options: { stamp: s } }) => {
    if (!s) return undefined;
    if ("pdf_report_id" in s) return { kind: "report", reportId: s.pdf_report_id, position: s.position ?? "over" };
    return {
      kind: "jpeg",
      bytes: decodeBase64(s.image.content_base64)!,
      opacity: s.opacity ?? STAMP_DEFAULT_OPACITY,
      position: s.position ?? "over",
    };
  },
  // A report's stamp is its stored PDF, fetched by the caller (ctx.stampPath); a JPEG becomes a page of the report's size.
  prepare: async (s, ctx) => {
    if (s.kind === "report") return ctx.stampPath!;
    const path = join(ctx.dir(), "stamp.pdf");
    await writeFile(path, jpegStampPdf(s.bytes, jpegSize(s.bytes)!, s.opacity, await ctx.pageSize()));
    return path;
  },
  job: (s, file) => layer(s.position, file),
};
