// The E-invoices page in a real browser against the executable, with axe-core's WCAG 2.1 AA rules at
// desktop and phone width (as dashboard-a11y.test.ts checks the other pages): empty, nothing sent, XML
// that cannot be read, an official example uploaded (valid, its readable PDF shown), and a pasted
// invoice that breaks a rule (its errors listed with rule id and field). Skipped, naming why, without shared/.
import { afterAll, beforeAll, expect } from "bun:test";
import { readFileSync } from "node:fs";
import { sharedMissing, sharedPath } from "../helpers/shared";
import { type Harness, startHarness, test, Watched } from "./harness";
import { expectNoAxeViolationsAt } from "./page-checks";

const EXAMPLE = "einvoice/examples/CII_example5.xml";
const missing = sharedMissing(EXAMPLE);
const widths = { desktop: { width: 1280, height: 800 }, phone: { width: 390, height: 844 } };

let h: Harness;
let w: Watched;
const checkBothWidths = (label: string) => expectNoAxeViolationsAt(w.page, label, widths);

beforeAll(async () => {
  if (missing) return;
  h = await startHarness();
  w = await Watched.open(h, widths.desktop);
  await w.signIn(h.adminKey);
}, 180_000);

afterAll(async () => {
  if (w) {
    w.check();
    await w.close();
  }
  await h?.cleanup();
}, 60_000);

test(`E-invoices: empty, nothing sent, unreadable XML, a valid example printed, an invalid invoice's errors${missing ? ` (skipped: ${missing})` : ""}`, async () => {
  if (missing) return;
  const { page } = w;
  await page.goto("/dashboard/e-invoices");
  await checkBothWidths("e-invoices, empty");

  await page.getByRole("button", { name: "Check and print" }).click();
  await page.locator("#file-error").waitFor();
  await w.forgiveStatus(422);
  await checkBothWidths("e-invoices, nothing sent");

  await page.getByLabel("Or paste the XML").fill("this is not XML");
  await page.getByRole("button", { name: "Check and print" }).click();
  await page.locator("#xml-error").getByText("cannot be read").waitFor();
  await w.forgiveStatus(400);
  await checkBothWidths("e-invoices, unreadable");

  await page.getByLabel("Or paste the XML").fill("");
  await page.getByLabel("XML or Factur-X/ZUGFeRD PDF file").setInputFiles(sharedPath(EXAMPLE));
  await page.getByLabel("Language of the PDF").selectOption("de");
  await page.getByRole("button", { name: "Check and print" }).click();
  await page.locator("#verdict").getByText("Valid.").waitFor();
  await page.locator("iframe.preview").waitFor({ timeout: 60_000 });
  await checkBothWidths("e-invoices, valid and printed");

  const broken = readFileSync(sharedPath(EXAMPLE), "utf8").replace(/<ram:GrandTotalAmount>[^<]+</, "<ram:GrandTotalAmount>1.00<");
  await page.goto("/dashboard/e-invoices");
  await page.getByLabel("Or paste the XML").fill(broken);
  await page.getByRole("button", { name: "Check and print" }).click();
  await page.locator("#verdict").getByText("Not valid.").waitFor();
  const rules = await page.locator("#verdict td[data-label='Rule']").allTextContents();
  expect(rules).toContain("BR-CO-15");
  expect(await page.locator("#verdict td[data-label='Field']").first().textContent()).toStartWith("/rsm:CrossIndustryInvoice");
  await page.locator("iframe.preview").waitFor({ timeout: 60_000 });
  await checkBothWidths("e-invoices, not valid");
  // For the guide (docs/dashboard.md): the verdict with its errors, and the readable PDF under it.
  await w.shoot("e-invoices");
}, 240_000);
