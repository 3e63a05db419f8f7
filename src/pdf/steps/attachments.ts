// options.attachments: files embedded in the PDF (an invoice's XML, a data export), shown in a
// viewer's attachment list.
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { decodeBase64 } from "../option-problems";
import type { QpdfStep } from "../step";

export type AttachmentsParams = { filename: string; bytes: Uint8Array; mimeType?: string }[];

export const attachments: QpdfStep<AttachmentsParams, string[]> = {
  name: "attachments",
  tool: "qpdf",
  plan: ({ options: o }) =>
    o.attachments?.length
      ? o.attachments.map((a) => ({ filename: a.filename, bytes: decodeBase64(a.content_base64)!, mimeType: a.mime_type }))
      : undefined,
  prepare: async (list, ctx) => {
    const paths: string[] = [];
    for (const [i, a] of list.entries()) {
      const path = join(ctx.dir(), `attachment-${i}`);
      await writeFile(path, a.bytes);
      paths.push(path);
    }
    return paths;
  },
  job: (list, paths) => ({
    addAttachment: list.map((a, i) => ({
      file: paths[i]!,
      key: a.filename,
      filename: a.filename,
      ...(a.mimeType ? { mimetype: a.mimeType } : {}),
    })),
  }),
};
