// The Assets page in real Chromium against the compiled executable: upload with the file picker (as a
// keyboard user does) and by dropping a file on the form, the image preview and the font sample drawn
// in the uploaded font, the copy button, delete; axe-core's WCAG 2.1 AA rules at desktop and phone
// width in each state; screenshots (assets-desktop.png, assets-phone.png) into REPORTGEN_SCREENSHOTS
// (docs/screenshots for the guide) or tests/e2e/screenshots.
import { expect } from "bun:test";
import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { png } from "../helpers/images";
import { screenshots, test, viewports } from "./harness";
import { expectNoAxeViolationsAt } from "./page-checks";
import { useSignedIn } from "./signed-in";

const shots = process.env.REPORTGEN_SCREENSHOTS ?? screenshots;
const WOFF2 = readFileSync(join(import.meta.dir, "../../docs/examples/invoice-de/source-code-pro-500.woff2"));
const LOGO = png(120, 40, (x, y) => (x < 40 ? [29, 53, 87] : y % 10 < 5 ? [230, 57, 70] : [241, 250, 238]));

const e2e = useSignedIn();

const accessibleAtBothWidths = (label: string) => expectNoAxeViolationsAt(e2e.w.page, label, viewports);

test("empty, then an upload with the file picker: the image previews, accessible at both widths", async () => {
  const { page } = e2e.w;
  await page.goto("/dashboard");
  await page.getByRole("navigation", { name: "Sections" }).getByRole("link", { name: "Assets" }).click();
  await page.waitForURL(/\/dashboard\/asset-library$/);
  await page.getByText("No assets yet").waitFor();
  await accessibleAtBothWidths("assets, empty");

  await page.getByLabel("File").setInputFiles({ name: "logo.png", mimeType: "image/png", buffer: Buffer.from(LOGO) });
  await page.getByRole("button", { name: "Upload" }).click();
  await page.getByRole("status").filter({ hasText: "logo.png was uploaded" }).waitFor();
  const img = page.getByRole("img", { name: "Preview of logo.png" });
  await img.waitFor();
  expect(await img.evaluate((el) => (el as HTMLImageElement).naturalWidth)).toBe(120);
  await accessibleAtBothWidths("assets, one image");
}, 90_000);

test("a font dropped on the form is uploaded; its sample is drawn in that font; the reference copies", async () => {
  const { page } = e2e.w;
  // A real drop: a DataTransfer holding the file, dispatched on the form as the browser would.
  const transfer = await page.evaluateHandle(
    (bytes) => {
      const dt = new DataTransfer();
      dt.items.add(new File([new Uint8Array(bytes)], "brand.woff2", { type: "font/woff2" }));
      return dt;
    },
    [...WOFF2],
  );
  await page.dispatchEvent("form[data-dropzone]", "dragover", { dataTransfer: transfer });
  expect(await page.locator("form[data-dropzone]").getAttribute("class")).toContain("dragging");
  await page.dispatchEvent("form[data-dropzone]", "drop", { dataTransfer: transfer });
  await page.getByRole("status").filter({ hasText: "brand.woff2 was uploaded" }).waitFor();
  const sample = page.locator(".asset-sample").first();
  await sample.waitFor();
  const family = await sample.evaluate((el) => getComputedStyle(el).fontFamily.split(",")[0]!.replace(/"/g, "").trim());
  expect(family).toMatch(/^asset-font-/);
  await page.evaluate(() => document.fonts.ready);
  expect(
    await page.evaluate(
      (f) =>
        document.fonts.check(`16px "${f}"`) && [...document.fonts].some((x) => x.family.replace(/"/g, "") === f && x.status === "loaded"),
      family,
    ),
  ).toBe(true);

  await page
    .getByRole("row", { name: /brand\.woff2/ })
    .getByRole("button", { name: "Copy" })
    .click();
  await page.waitForFunction(() => /Copied|Could not copy/.test(document.getElementById("live")?.textContent ?? ""));
  expect(await page.getByLabel("Reference of brand.woff2", { exact: true }).inputValue()).toBe("asset:brand.woff2");

  await accessibleAtBothWidths("assets, image and font");
  mkdirSync(shots, { recursive: true });
  for (const [label, vp] of Object.entries(viewports)) {
    await page.setViewportSize(vp);
    await page.waitForFunction((width) => window.innerWidth === width, vp.width);
    await page.screenshot({ path: join(shots, `assets-${label}.png`), fullPage: true, timeout: 15_000 }).catch((e: Error) => {
      console.error(`screenshot assets-${label} skipped: ${e.message.split("\n")[0]}`);
    });
  }
  await page.setViewportSize(viewports.desktop);
}, 90_000);

test("a refused upload says why on the form; delete asks first", async () => {
  const { page } = e2e.w;
  await page.getByLabel("File").setInputFiles({
    name: "bad.svg",
    mimeType: "image/svg+xml",
    buffer: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>'),
  });
  await page.getByRole("button", { name: "Upload" }).click();
  await page.locator("#upload-error").waitFor();
  await e2e.w.forgiveStatus(422);
  expect(await page.locator("#upload-error").textContent()).toContain("onload");
  expect(await page.getByLabel("File").getAttribute("aria-invalid")).toBe("true");
  await accessibleAtBothWidths("assets, refused upload");

  await page.getByRole("link", { name: "Delete logo.png" }).click();
  await page.getByRole("button", { name: "Delete logo.png" }).click();
  await page.getByRole("status").filter({ hasText: "logo.png was deleted" }).waitFor();
  expect(await page.getByRole("img", { name: "Preview of logo.png" }).count()).toBe(0);
}, 90_000);
