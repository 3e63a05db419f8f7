// The fontconfig configuration Chromium runs with, so that every script prints as real, searchable text.
//
// Chromium's PDF backend (Skia) embeds TrueType (glyf) outlines as CID fonts, but turns CFF outlines
// (Debian's Noto CJK, any .otf with PostScript outlines) into Type 3 fonts: text that pdftotext reads out
// of order and print shops reject. Debian's own fontconfig rules pick Noto CJK for text tagged ja/ko/zh,
// so the CFF faces are rejected outright here and one TrueType CJK face is used for all CJK fallback:
//   - WenQuanYi Micro Hei (fonts-wqy-microhei, 5 MB installed): Simplified and Traditional Chinese, with
//     kana and all 11 172 Hangul syllables, so it also covers Japanese and Korean.
// One face, whatever the lang attribute says: Chromium caches the fallback font of each character in a
// renderer regardless of language, so a Japanese-only fallback rule gave a report different fonts
// depending on which reports the page had printed before (and mixed two fonts within one word).
//   - IPAexGothic (fonts-ipaexfont-gothic, 6 MB) is installed for templates that want Japanese glyph
//     forms: they name it (font-family: "IPAexGothic"), which is a lookup by family, not a fallback.
// Operators add fonts with --fonts-dir; CFF faces there are rejected too (they would print as Type 3).
import { mkdirSync, statSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { StartupError } from "../lib/errors";

/** Writes <dataDir>/fontconfig/fonts.conf and returns its path, for Chromium's FONTCONFIG_FILE. */
/** Where writeFontconfig() puts the file Chromium is started with (FONTCONFIG_FILE). */
export function fontconfigPath(dataDir: string): string {
  return join(resolve(dataDir, "fontconfig"), "fonts.conf");
}

export function writeFontconfig(dataDir: string, fontsDir?: string): string {
  if (fontsDir && !statSync(fontsDir, { throwIfNoEntry: false })?.isDirectory()) {
    throw new StartupError(`--fonts-dir ${fontsDir} is not a directory: create it, or leave the setting empty`);
  }
  const dir = resolve(dataDir, "fontconfig");
  mkdirSync(join(dir, "cache"), { recursive: true });
  const file = fontconfigPath(dataDir);
  writeFileSync(file, fontconfigXml(join(dir, "cache"), fontsDir ? resolve(fontsDir) : undefined));
  return file;
}

export function fontconfigXml(cacheDir: string, fontsDir?: string): string {
  const x = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
  return `<?xml version="1.0"?>
<!DOCTYPE fontconfig SYSTEM "urn:fontconfig:fonts.dtd">
<!-- Written by reportgen at start-up (src/render/fonts.ts); changes are overwritten. -->
<fontconfig>
  <!-- Operator fonts and a writable cache first, then the system's configuration. -->
${fontsDir ? `  <dir>${x(fontsDir)}</dir>\n` : ""}  <cachedir>${x(cacheDir)}</cachedir>
  <include ignore_missing="yes">/etc/fonts/fonts.conf</include>

  <!-- Skia prints CFF outlines as Type 3 fonts: never use one. -->
  <selectfont>
    <rejectfont>
      <pattern><patelt name="fontformat"><string>CFF</string></patelt></pattern>
    </rejectfont>
  </selectfont>

  <!-- Debian prefers Noto CJK (rejected above) for text tagged with a CJK language: pin WenQuanYi
       instead, so tagged and untagged CJK text fall back to the same face. -->
  <match target="pattern">
    <test name="lang" compare="contains"><string>ja</string></test>
    <edit name="family" mode="prepend"><string>WenQuanYi Micro Hei</string></edit>
  </match>
  <match target="pattern">
    <test name="lang" compare="contains"><string>zh</string></test>
    <edit name="family" mode="prepend"><string>WenQuanYi Micro Hei</string></edit>
  </match>
  <match target="pattern">
    <test name="lang" compare="contains"><string>ko</string></test>
    <edit name="family" mode="prepend"><string>WenQuanYi Micro Hei</string></edit>
  </match>
</fontconfig>
`;
}
