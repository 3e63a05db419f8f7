// Chromium's zygote is dropped only where it costs memory and saves nothing per report: the headless
// shell (which prints in its renderer) without the sandbox (which the zygote sets up).
import { expect, test } from "bun:test";
import { launchArgs } from "../../src/render/browser";

const SHELL = "/usr/lib/chromium/chromium-headless-shell";
const DESKTOP = "/usr/lib/chromium/chromium";

test("the headless shell without Chromium's sandbox runs without a zygote", () => {
  expect(launchArgs(SHELL, undefined, false)).toContain("--no-zygote");
});

test("with Chromium's sandbox the zygote stays: it sets the sandbox up", () => {
  expect(launchArgs(SHELL, undefined, true)).not.toContain("--no-zygote");
});

test("desktop Chromium keeps its zygote: it forks the PrintCompositor process of every print", () => {
  expect(launchArgs(DESKTOP, undefined, false)).not.toContain("--no-zygote");
});
