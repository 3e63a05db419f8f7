// The print options a client may set per report, with their defaults. Shared by validation and the renderer.
export const paperFormats = ["A3", "A4", "A5", "Letter", "Legal", "Tabloid"] as const;
export type PaperFormat = (typeof paperFormats)[number];

export interface PdfOptions {
  format: PaperFormat;
  landscape: boolean;
  printBackground: boolean;
  scale: number;
  margin: { top: string; right: string; bottom: string; left: string };
}

export const defaultPdfOptions: PdfOptions = {
  format: "A4",
  landscape: false,
  printBackground: true,
  scale: 1,
  margin: { top: "0", right: "0", bottom: "0", left: "0" },
};

/** A CSS length as Chromium's print settings accept it. */
export const CSS_LENGTH_RE = /^(0|\d{1,4}(\.\d{1,3})?(px|in|cm|mm))$/;
