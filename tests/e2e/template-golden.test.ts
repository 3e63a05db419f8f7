// Golden samples on a template's page, end to end: the compiled executable, real HTTP and SQLite,
// Debian's Chromium. A template with require_approval and two samples gets a version that recolours a
// word and moves a line; its page shows each changed sample's page before and after, side by side, with
// the diff laid over the after page by a checkbox; axe-core finds nothing at desktop and phone width;
// Approve makes the version the default (the API says so). Screenshots (template-golden-desktop.png,
// template-golden-phone.png) go to REPORTGEN_SCREENSHOTS (docs/screenshots for the guide) or tests/e2e/screenshots.
import { expect } from "bun:test";
import { api } from "../helpers/process";
import { screenshots, test, viewports } from "./harness";
import { expectNoAxeViolationsAt } from "./page-checks";
import { useSignedIn } from "./signed-in";

const shots = process.env.REPORTGEN_SCREENSHOTS ?? screenshots;
const V1 = `<html><body style="font-family:sans-serif;margin:40px"><h1>Invoice <%= number %></h1>
<p>Total: <b style="color:#000"><%= total %> EUR</b></p><p style="margin-top:20px">Thank you</p></body></html>`;
// The editor's live preview renders the version's sample_data.
const SAMPLE = { number: "A-1", total: 42 };
const V2 = V1.replace("color:#000", "color:#c00").replace("margin-top:20px", "margin-top:50px");

let id = "";
const s = useSignedIn(async (h) => {
  const base = h.server.baseUrl;
  const made = await api(base, h.adminKey, "POST", "/templates", {
    name: "Invoice",
    engine: "ejs",
    html_template: V1,
    require_approval: true,
  });
  expect(made.status).toBe(201);
  id = made.body.template_id;
  for (const [name, total] of [
    ["small", 42],
    ["large", 123456],
  ] as const)
    expect((await api(base, h.adminKey, "POST", `/templates/${id}/samples`, { name, data: { number: name, total } })).status).toBe(201);
  const v2 = await api(base, h.adminKey, "POST", `/templates/${id}/versions`, { html_template: V2, sample_data: SAMPLE });
  expect(v2.body.comparison.status).toBe("changed");
});

test("the changed samples side by side with the diff overlay, axe-clean at both widths, and Approve", async () => {
  const { page } = s.w;
  await page.goto(`/dashboard/templates/${id}`);
  const panel = page.getByRole("region", { name: /Golden samples/ });
  await panel.waitFor();
  await panel.getByText("2 changed").waitFor();
  for (const sample of ["small", "large"]) {
    const region = panel.getByRole("region", { name: `Sample ${sample}` });
    expect(await region.getByRole("img", { name: `Page 1 of sample ${sample} with version 1` }).isVisible()).toBe(true);
    expect(await region.getByRole("img", { name: `Page 1 of sample ${sample} with version 2` }).isVisible()).toBe(true);
  }
  // Every picture loaded (the session serves them).
  await page.waitForFunction(() => [...document.querySelectorAll<HTMLImageElement>(".golden img")].every((i) => i.complete), null, {
    timeout: 30_000,
  });
  const broken = await page.$$eval(".golden img", (imgs) =>
    (imgs as HTMLImageElement[]).filter((i) => i.naturalWidth === 0).map((i) => i.src),
  );
  expect(broken).toEqual([]);
  // The overlay: shown at first, hidden when the box is cleared.
  const diff = panel.getByRole("img", { name: "Page 1 of sample small: the changed pixels in red" });
  expect(await diff.isVisible()).toBe(true);
  const toggle = panel.getByRole("region", { name: "Sample small" }).getByRole("checkbox", { name: "Highlight the changed pixels" });
  await toggle.uncheck();
  expect(await diff.isVisible()).toBe(false);
  await toggle.check();
  expect(await diff.isVisible()).toBe(true);
  await expectNoAxeViolationsAt(page, "template golden samples", viewports);
  for (const [label, vp] of Object.entries(viewports)) {
    await page.setViewportSize(vp);
    await page.locator(".golden").screenshot({ path: `${shots}/template-golden-${label}.png`, timeout: 15_000 });
  }
  await page.setViewportSize(viewports.desktop);

  await panel.getByRole("button", { name: "Approve version 2" }).click();
  await page.getByText("Version 2 approved").waitFor();
  const t = await api(s.h.server.baseUrl, s.h.adminKey, "GET", `/templates/${id}`);
  expect(t.body.data.default_version).toBe(2);
  await expectNoAxeViolationsAt(page, "template approved", viewports);
}, 120_000);
