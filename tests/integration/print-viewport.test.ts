// A page that runs no script prints with a tiny screen (src/render/browser.ts, setScripts): Chromium
// then rasters and composites almost nothing for display. The PDF must not change for it: the service's
// PDFs are rendered to pixels and compared with the same HTML printed by plain playwright-core on a
// 1280x720 page of its own Chromium. A page that runs scripts still sees a desktop-sized screen.
import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import ejs from "ejs";
import { type Browser, chromium } from "playwright-core";
import { benchTemplates } from "../../scripts/bench-templates";
import { settings } from "../../src/config/settings";
import { writeFontconfig } from "../../src/render/fonts";
import { SCRIPT_VIEWPORT } from "../../src/render/page-slots";
import { withPrintDefaults } from "../../src/render/print-page";
import { generate, pdfText, type TestApp, useRenderApp } from "../helpers/app";

setDefaultTimeout(120_000);

let t: TestApp;
useRenderApp((a) => (t = a));

const work = mkdtempSync(join(tmpdir(), "reportgen-viewport-"));
let reference: Browser;
beforeAll(async () => {
  // The service's fonts, so that both sides draw the same glyphs.
  const env = { ...process.env, FONTCONFIG_FILE: writeFontconfig(work) };
  reference = await chromium.launch({
    executablePath: settings.chromiumPath.default,
    args: ["--disable-gpu", "--hide-scrollbars", "--font-render-hinting=none"],
    env,
    chromiumSandbox: false,
  });
});
afterAll(async () => {
  await reference?.close();
  rmSync(work, { recursive: true, force: true });
});

/** Every page of a PDF as PNG bytes (pdftoppm at 60 dpi). */
function pixels(pdf: Uint8Array, name: string): Buffer[] {
  const dir = mkdtempSync(join(work, `${name}-`));
  writeFileSync(join(dir, "in.pdf"), pdf);
  const r = Bun.spawnSync(["pdftoppm", "-r", "60", "-png", join(dir, "in.pdf"), join(dir, "p")]);
  expect(r.exitCode).toBe(0);
  return readdirSync(dir)
    .filter((f) => f.endsWith(".png"))
    .sort()
    .map((f) => readFileSync(join(dir, f)));
}

async function referencePdf(html: string): Promise<Uint8Array> {
  const context = await reference.newContext({ viewport: SCRIPT_VIEWPORT, javaScriptEnabled: false });
  const page = await context.newPage();
  await page.setContent(withPrintDefaults(html), { waitUntil: "load" });
  const pdf = await page.pdf({
    format: "A4",
    printBackground: true,
    preferCSSPageSize: true,
    margin: { top: "0", right: "0", bottom: "0", left: "0" },
  });
  await context.close();
  return pdf;
}

const box = Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg" width="200" height="100"><rect width="200" height="100" fill="#1d3557"/></svg>',
).toString("base64");
const screenUnits =
  "<style>body{margin:0} .a{width:50vw;height:20vh;background:#c00} @media (max-width:600px){.b{color:#0a0}} @media (min-width:1000px){.c{font-size:30px}}" +
  " .f{position:fixed;bottom:0;right:0} .s{position:sticky;top:0;background:#eee}</style>" +
  `<div class=s>sticky</div><div class=a>half the width</div><p class=b>narrow media</p><p class=c>wide media</p><div class=f>fixed</div>` +
  `<img src="data:image/svg+xml;base64,${box}" style="margin-top:2500px"><img loading=lazy src="data:image/svg+xml;base64,${box}" style="margin-top:4000px">`;

// A script-less page also keeps its document off the screen (no layout until the print: see SCREEN_HIDDEN
// in src/render/print-page.ts). What styles load must still load before the print...
const red = Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg" width="40" height="40"><circle cx="20" cy="20" r="18" fill="#c00"/></svg>',
).toString("base64");
const mono = readFileSync("/usr/share/fonts/truetype/liberation/LiberationMono-Regular.ttf").toString("base64");
const styledResources =
  `<style>@font-face{font-family:Brand;src:url(data:font/ttf;base64,${mono})} h1{font-family:Brand}` +
  ` .bg{width:300px;height:120px;background:url(data:image/svg+xml;base64,${box})} ul{list-style-image:url(data:image/svg+xml;base64,${red})}` +
  ` p::before{content:url(data:image/svg+xml;base64,${red})} .border{border:20px solid;border-image:url(data:image/svg+xml;base64,${box}) 20 round;height:40px}</style>` +
  `<h1>Brand heading</h1><div class=bg></div><ul><li>listed</li></ul><p>after an image</p><div class=border></div>`;
// ...and what loads only once it has a box (<object>, <embed>) keeps its screen layout. (A <video> also
// needs one for its poster, but a page whose scripts are off draws it with native controls, which the
// reference's does not: it is not compared here.)
const boxedResources =
  `<object data="data:image/svg+xml;base64,${box}" type="image/svg+xml" width=200 height=100></object>` +
  `<embed src="data:image/svg+xml;base64,${red}" type="image/svg+xml" width=40 height=40>`;

test("script-less reports print the same pixels as a 1280x720 page: invoice, 1000-row report, screen units, media queries, resources", async () => {
  // The bench's variants with options print the invoice's HTML again, or need the service's e_invoice variable;
  // einvoice-render is printed from a request of its own (an incoming e-invoice), not from template and data.
  const docs: [string, string, unknown][] = benchTemplates()
    .filter((b) => b.engine === "ejs" && !b.options && !b.request)
    .map((b) => [b.name, b.html_template, b.data]);
  docs.push(
    ["screen-units", screenUnits, undefined],
    ["styled-resources", styledResources, undefined],
    ["boxed-resources", boxedResources, undefined],
  );
  for (const [name, template, data] of docs) {
    const html = data === undefined ? template : ejs.render(template, data as ejs.Data, {});
    const served = await generate(
      t,
      data === undefined ? { engine: "raw", html_template: template } : { engine: "ejs", html_template: template, data },
    );
    expect(served.report.status).toBe("succeeded");
    const ours = pixels(served.pdf!, `${name}-service`);
    const theirs = pixels(await referencePdf(html), `${name}-reference`);
    expect({ name, pages: ours.length }).toEqual({ name, pages: theirs.length });
    for (const [i, png] of ours.entries())
      expect({ name, page: i + 1, same: png.equals(theirs[i]!) }).toEqual({ name, page: i + 1, same: true });
  }
});

test("a page that runs scripts sees a desktop-sized screen, and the next script-less report is still printed right", async () => {
  const scripted = await generate(t, {
    engine: "raw",
    html_template: "<p id=o>none</p><script>document.getElementById('o').textContent = 'SCREEN=' + innerWidth + 'x' + innerHeight</script>",
  });
  expect(scripted.report.status).toBe("succeeded");
  expect(await pdfText(scripted.pdf!)).toContain(`SCREEN=${SCRIPT_VIEWPORT.width}x${SCRIPT_VIEWPORT.height}`);
  const after = await generate(t, { engine: "raw", html_template: screenUnits });
  expect(pixels(after.pdf!, "after-scripts")).toEqual(pixels(await referencePdf(screenUnits), "after-scripts-reference"));
});
