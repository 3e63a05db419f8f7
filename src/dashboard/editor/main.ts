// The Templates page's script (bundled by scripts/build-editor.ts into assets/editor.bundle.js): code
// editors over the textareas, and the live preview. The page works without it: plain textareas,
// and a "Preview" button that opens the PDF.
import { mountEditor } from "./editors";
import { livePreview } from "./preview";

function start() {
  const form = document.querySelector<HTMLFormElement>("form[data-template-form]");
  const panel = document.querySelector<HTMLElement>("[data-preview]");
  const changed = form && panel ? livePreview(form, panel) : () => {};
  for (const textarea of document.querySelectorAll<HTMLTextAreaElement>("textarea[data-editor]")) mountEditor(textarea, changed);
  // The no-script button is not needed once the preview is live.
  if (form && panel) for (const b of document.querySelectorAll<HTMLElement>("[data-without-script]")) b.hidden = true;
}

if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
else start();
