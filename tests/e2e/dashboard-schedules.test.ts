// The dashboard's Schedules page end to end: the compiled executable, real HTTP, real SQLite, Debian's
// Chromium. No templates yet, then a schedule created from the form (and a bad cron expression refused
// next to its field), paused and resumed, its runs (real ticks of a seconds cron), and deletion behind a
// confirmation. axe-core finds no WCAG 2.1 AA violation on each state at desktop and phone widths.
import { expect } from "bun:test";
import { api } from "../helpers/process";
import { test, viewports } from "./harness";
import { expectNoAxeViolationsAt } from "./page-checks";
import { useSignedIn } from "./signed-in";

const e2e = useSignedIn();
const check = (label: string) => expectNoAxeViolationsAt(e2e.w.page, label, viewports);

test("schedules: none yet, create (a bad cron refused), pause, resume, runs, delete", async () => {
  const { page } = e2e.w;
  const base = e2e.h.server.baseUrl;
  await page.goto("/dashboard/schedules");
  await page.getByText("No templates yet").waitFor();
  await check("schedules, no templates");

  const tpl = await api(base, e2e.h.adminKey, "POST", "/templates", {
    name: "Statement",
    engine: "ejs",
    html_template: "<h1>Statement for <%= customer %></h1>",
  });
  expect(tpl.status).toBe(201);
  await page.goto("/dashboard/schedules");
  await check("schedules, none yet");

  await page.getByLabel("Name").fill("Every two seconds");
  await page.getByLabel("Cron expression").fill("61 * * * *");
  await page.getByLabel("Data (JSON object)").fill('{"customer": "ACME"}');
  await page.getByRole("button", { name: "Create schedule" }).click();
  await page.locator("#cron-error").waitFor();
  await e2e.w.forgiveStatus(422);
  expect(await page.locator("#cron-error").textContent()).toContain("Invalid value for minute");
  expect(await page.getByLabel("Cron expression").getAttribute("aria-invalid")).toBe("true");
  await check("schedules, bad cron refused");

  await page.getByLabel("Cron expression").fill("*/2 * * * * *");
  await page.getByLabel("Time zone").fill("Europe/Berlin");
  await page.getByRole("button", { name: "Create schedule" }).click();
  await page.locator(".notice.ok").waitFor();
  await check("schedules, one active");

  await page.getByRole("button", { name: "Pause schedule Every two seconds" }).click();
  await page.getByRole("button", { name: "Resume schedule Every two seconds" }).waitFor();
  await check("schedules, paused");
  await page.getByRole("button", { name: "Resume schedule Every two seconds" }).click();
  await page.getByRole("button", { name: "Pause schedule Every two seconds" }).waitFor();

  // A tick or two pass: the runs page lists them with their reports.
  await Bun.sleep(4_500);
  await page.getByRole("link", { name: "Runs of schedule Every two seconds" }).click();
  await page.getByRole("heading", { name: "Runs of Every two seconds" }).waitFor();
  expect(await page.locator("tbody tr").count()).toBeGreaterThan(0);
  await check("schedule runs");

  await page.goto("/dashboard/schedules");
  await page.getByRole("link", { name: "Delete schedule Every two seconds" }).click();
  await page.getByRole("button", { name: "Delete Every two seconds" }).waitFor();
  await check("schedules, delete confirmation");
  await page.getByRole("button", { name: "Delete Every two seconds" }).click();
  await page.waitForURL(/\/dashboard\/schedules\?deleted=/);
  await page.getByText("No schedules").waitFor();
  await check("schedules, after a deletion");
}, 120_000);
