// The committed editor bundle (src/dashboard/assets/editor.bundle.js) is what scripts/build-editor.ts
// makes from src/dashboard/editor/ and the locked CodeMirror packages: editing either without
// rebuilding fails here. And it keeps to what the dashboard's CSP allows.
import { expect, test } from "bun:test";
import { bundleEditor, editorBundlePath } from "../../scripts/build-editor";
import { assets } from "../../src/dashboard/assets";

test("the committed editor bundle is up to date with its sources (else: bun scripts/build-editor.ts)", async () => {
  const committed = await Bun.file(editorBundlePath).text();
  expect(committed === (await bundleEditor())).toBe(true);
}, 60_000);

test("the bundle is ASCII, evaluates no strings as code, and makes no <style> element that the CSP would block", async () => {
  const text = await Bun.file(editorBundlePath).text();
  expect(/[^\x00-\x7f]/.test(text)).toBe(false);
  expect(text).not.toContain("new Function");
  expect(text).not.toMatch(/\beval\(/);
  // style-mod's document case, patched by the build to use a constructed stylesheet.
  expect(text).not.toMatch(/!\w+\.head&&\w+\.adoptedStyleSheets/);
  expect(text).toMatch(/if\(\w+\.adoptedStyleSheets&&\w+\.CSSStyleSheet\)/);
});

test("the dashboard serves it under a hashed URL as JavaScript", () => {
  expect(assets.editor.url).toMatch(/^\/dashboard\/assets\/editor\.[0-9a-f]{12}\.js$/);
  expect(assets.editor.type).toBe("text/javascript; charset=utf-8");
  expect(assets.editor.body.length).toBeGreaterThan(100_000);
});
