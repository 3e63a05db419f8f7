// What happens to a PDF after Chromium prints it: one plan, computed from the options, run by
// qpdf in one invocation. The request options, a stored template's defaults and a merge all go through
// the same two functions: postOptionProblems() (what a schema cannot check) and planPostProcessing().
// Each option is a top-level field of `options`, replaced as a whole when defaults and a request are
// merged field by field, so a plan never mixes two watermarks or two sets of passwords.
import { type LayerPosition, type PdfPermission, type PostOptions, STAMP_DEFAULT_OPACITY, WATERMARK_DEFAULTS } from "../pdf/options";

/** Everything qpdf is asked to do to one PDF, in the order it does it. Empty (`isEmpty`) when no option asks for work. */
export interface PostPlan {
  watermark?: { text: string; opacity: number; angle: number; position: LayerPosition };
  stamp?:
    | { kind: "report"; reportId: string; position: LayerPosition }
    | { kind: "jpeg"; bytes: Uint8Array; opacity: number; position: LayerPosition };
  attachments: { filename: string; bytes: Uint8Array; mimeType?: string }[];
  encryption?: { userPassword: string; ownerPassword: string; permissions: PdfPermission[] };
  linearize: boolean;
}

export const isEmptyPlan = (p: PostPlan) => !p.watermark && !p.stamp && !p.attachments.length && !p.encryption && !p.linearize;

/** WinAnsiEncoding's characters outside Latin-1, with their byte (PDF 32000, Annex D). */
const WINANSI_EXTRA = new Map(
  [..."€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ"].map((c, i) => [
    c,
    [
      0x80, 0x82, 0x83, 0x84, 0x85, 0x86, 0x87, 0x88, 0x89, 0x8a, 0x8b, 0x8c, 0x8e, 0x91, 0x92, 0x93, 0x94, 0x95, 0x96, 0x97, 0x98, 0x99,
      0x9a, 0x9b, 0x9c, 0x9e, 0x9f,
    ][i]!,
  ]),
);

/**
 * `text` in WinAnsiEncoding, the encoding of the watermark's standard font (Helvetica-Bold), or
 * undefined when it has a character that font cannot draw (anything outside Western European text).
 */
export function winAnsiBytes(text: string): Uint8Array | undefined {
  const out: number[] = [];
  for (const c of text) {
    const code = c.codePointAt(0)!;
    if ((code >= 0x20 && code <= 0x7e) || (code >= 0xa0 && code <= 0xff)) out.push(code);
    else if (WINANSI_EXTRA.has(c)) out.push(WINANSI_EXTRA.get(c)!);
    else return undefined;
  }
  return Uint8Array.from(out);
}
/** A file name shown in a PDF viewer's attachment list: no path, no control characters. */
const FILENAME_RE = /^[^/\\\p{Cc}]{1,255}$/u;
const MIME_RE = /^[a-z0-9][a-z0-9!#$&^_.+-]{0,126}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,126}$/i;
const BASE64_RE = /^[A-Za-z0-9+/]*={0,2}$/;

export interface Problem {
  field: string;
  problem: string;
}

/**
 * What the schema cannot check about the post-processing options, each naming its field: text the
 * watermark font cannot draw, base64 that does not decode, a stamp image that is not a JPEG, two
 * attachments with one name, passwords that are the same. `prefix` is where the options sit ("options").
 */
export function postOptionProblems(o: PostOptions, prefix = "options"): Problem[] {
  const problems: Problem[] = [];
  const add = (field: string, problem: string) => problems.push({ field: `${prefix}.${field}`, problem });
  if (o.watermark && !winAnsiBytes(o.watermark.text))
    add(
      "watermark.text",
      "may hold only Western European characters (WinAnsi: Latin-1 and € – — “ ” …), the characters of the standard Helvetica font it is drawn in",
    );
  if (o.encryption?.user_password !== undefined && o.encryption.user_password === o.encryption.owner_password)
    add("encryption.user_password", "must differ from owner_password (with the same password every reader is the owner)");
  const watermarkAt = o.watermark ? (o.watermark.position ?? WATERMARK_DEFAULTS.position) : undefined;
  if (o.stamp && watermarkAt === (o.stamp.position ?? "over"))
    add(
      "stamp.position",
      `is "${watermarkAt}", as the watermark's: one run of qpdf lays one layer over and one under the pages, so put one of them "${watermarkAt === "over" ? "under" : "over"}"`,
    );
  if (o.stamp && "image" in o.stamp) {
    const bytes = decodeBase64(o.stamp.image.content_base64);
    if (!bytes) add("stamp.image.content_base64", "is not valid base64");
    else if (!jpegSize(bytes)) add("stamp.image.content_base64", "is not a JPEG image (baseline or progressive)");
  }
  const names = new Set<string>();
  o.attachments?.forEach((a, i) => {
    if (!FILENAME_RE.test(a.filename)) add(`attachments[${i}].filename`, "must be 1 to 255 characters without / \\ or control characters");
    else if (names.has(a.filename)) add(`attachments[${i}].filename`, `${a.filename} is attached twice; give each file its own name`);
    names.add(a.filename);
    if (a.mime_type !== undefined && !MIME_RE.test(a.mime_type))
      add(`attachments[${i}].mime_type`, "must be a media type such as application/xml");
    if (!decodeBase64(a.content_base64)) add(`attachments[${i}].content_base64`, "is not valid base64");
  });
  return problems;
}

/**
 * The plan for a PDF. `passwords` are the opened encryption passwords (the stored options hold only
 * their seal); without encryption in the options they are ignored.
 */
export function planPostProcessing(
  o: Omit<PostOptions, "encryption"> & { encryption?: { permissions?: PdfPermission[] } },
  passwords?: { user: string; owner: string },
): PostPlan {
  const plan: PostPlan = { attachments: [], linearize: o.linearize ?? false };
  if (o.watermark)
    plan.watermark = {
      text: o.watermark.text,
      opacity: o.watermark.opacity ?? WATERMARK_DEFAULTS.opacity,
      angle: o.watermark.angle ?? WATERMARK_DEFAULTS.angle,
      position: o.watermark.position ?? WATERMARK_DEFAULTS.position,
    };
  const s = o.stamp;
  if (s && "pdf_report_id" in s) plan.stamp = { kind: "report", reportId: s.pdf_report_id, position: s.position ?? "over" };
  else if (s) {
    plan.stamp = {
      kind: "jpeg",
      bytes: decodeBase64(s.image.content_base64)!,
      opacity: s.opacity ?? STAMP_DEFAULT_OPACITY,
      position: s.position ?? "over",
    };
  }
  for (const a of o.attachments ?? [])
    plan.attachments.push({ filename: a.filename, bytes: decodeBase64(a.content_base64)!, mimeType: a.mime_type });
  if (o.encryption) {
    if (!passwords) throw new Error("encryption planned without its passwords");
    plan.encryption = { userPassword: passwords.user, ownerPassword: passwords.owner, permissions: o.encryption.permissions ?? [] };
  }
  return plan;
}

/** Files a plan needs on disk, made by the runner; qpdf reads them by path. */
export interface PlanFiles {
  input: string;
  output: string;
  watermark?: string;
  stamp?: string;
  /** One path per attachment, in the plan's order. */
  attachments: string[];
}

/**
 * qpdf's job (its JSON job format, read from standard input) for a plan: the passwords never appear on
 * a command line (readable in /proc), and a password or file name that starts with "--" is a value, not
 * an option, which qpdf's positional --encrypt arguments cannot guarantee. `outline` is a qpdf JSON
 * update (a merge's bookmarks) applied to the input before the rest.
 */
export function qpdfJob(plan: PostPlan, f: PlanFiles, outline?: string): Record<string, unknown> {
  const job: Record<string, unknown> = { inputFile: f.input, outputFile: f.output, warningExit0: "", noWarn: "" };
  if (outline) job.updateFromJson = outline;
  const layer = (position: LayerPosition, file: string) => (job[position === "under" ? "underlay" : "overlay"] = { file, repeat: "1" });
  if (plan.watermark) layer(plan.watermark.position, f.watermark!);
  if (plan.stamp) layer(plan.stamp.position, f.stamp!);
  if (plan.attachments.length)
    job.addAttachment = plan.attachments.map((a, i) => ({
      file: f.attachments[i]!,
      key: a.filename,
      filename: a.filename,
      ...(a.mimeType ? { mimetype: a.mimeType } : {}),
    }));
  if (plan.linearize) job.linearize = "";
  if (plan.encryption) {
    const e = plan.encryption;
    const allow = new Set(e.permissions);
    job.encrypt = {
      userPassword: e.userPassword,
      ownerPassword: e.ownerPassword,
      "256bit": {
        print: allow.has("print") ? "full" : "none",
        extract: allow.has("copy") ? "y" : "n",
        // modify: assembling, forms and content; annotate (comments and form fields) comes with it.
        modify: allow.has("modify") ? "all" : "none",
        annotate: allow.has("annotate") || allow.has("modify") ? "y" : "n",
      },
    };
  }
  return job;
}

export function decodeBase64(s: string): Uint8Array | undefined {
  const clean = s.replace(/\s+/g, "");
  if (clean.length % 4 !== 0 || !BASE64_RE.test(clean)) return undefined;
  return Buffer.from(clean, "base64");
}

/** Width, height and colour components of a baseline or progressive JPEG, or undefined. */
export function jpegSize(b: Uint8Array): { width: number; height: number; components: number } | undefined {
  if (b[0] !== 0xff || b[1] !== 0xd8) return undefined;
  let i = 2;
  while (i + 9 < b.length) {
    if (b[i] !== 0xff) return undefined;
    const marker = b[i + 1]!;
    const len = (b[i + 2]! << 8) | b[i + 3]!;
    // SOF0..SOF2: baseline, extended, progressive (Huffman): what PDF's DCTDecode reads.
    if (marker >= 0xc0 && marker <= 0xc2) {
      const height = (b[i + 5]! << 8) | b[i + 6]!;
      const width = (b[i + 7]! << 8) | b[i + 8]!;
      const components = b[i + 9]!;
      return width && height && [1, 3, 4].includes(components) ? { width, height, components } : undefined;
    }
    i += 2 + len;
  }
  return undefined;
}
