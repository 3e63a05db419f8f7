// The live preview: while anything in the form changes, the PDF is rendered again (debounced) by
// POST /dashboard/templates/preview and shown in the page's frame from a blob: URL (the CSP allows
// frames from 'self' and blob: only). Preflight warnings and errors are shown next to it.

const DEBOUNCE_MS = 400;

interface PreviewAnswer {
  pdf: string;
  pages: number;
  bytes: number;
  ms: number;
  warnings: { code: string; message: string }[];
}

interface PreviewError {
  error: string;
  message: string;
  details?: unknown;
}

const sizeOf = (bytes: number) => (bytes < 1024 ? `${bytes} B` : `${(bytes / 1024).toFixed(1)} KB`);

function pdfBlob(base64: string): Blob {
  const raw = atob(base64);
  const bytes = new Uint8Array(raw.length);
  for (let i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
  return new Blob([bytes], { type: "application/pdf" });
}

/** Wires the preview panel to its form; returns the function to call when the form's content changed. */
export function livePreview(form: HTMLFormElement, panel: HTMLElement): () => void {
  const frame = panel.querySelector<HTMLIFrameElement>("iframe")!;
  const status = panel.querySelector<HTMLElement>("[data-preview-status]")!;
  const warnings = panel.querySelector<HTMLElement>("[data-preview-warnings]")!;
  const url = panel.dataset.preview!;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let inFlight: AbortController | undefined;
  let shown: string | undefined;
  let sequence = 0;

  function showWarnings(list: { code: string; message: string }[]) {
    warnings.replaceChildren(
      ...list.map((w) => {
        const li = document.createElement("li");
        const code = document.createElement("span");
        code.className = "mono";
        code.textContent = w.code;
        li.append(code, ` ${w.message}`);
        return li;
      }),
    );
    warnings.hidden = list.length === 0;
  }

  function say(text: string, kind: "busy" | "ok" | "error") {
    status.textContent = text;
    status.className = `preview-status ${kind}`;
    // A change typed while this render ran keeps the panel busy: its own render is still to come.
    panel.setAttribute("aria-busy", kind === "busy" || timer !== undefined ? "true" : "false");
  }

  async function render() {
    inFlight?.abort();
    const mine = new AbortController();
    inFlight = mine;
    const started = performance.now();
    timer = undefined;
    say("Rendering…", "busy");
    const body = new URLSearchParams();
    for (const [k, v] of new FormData(form)) if (typeof v === "string") body.append(k, v);
    try {
      const res = await fetch(url, {
        method: "POST",
        body,
        headers: { accept: "application/json" },
        credentials: "same-origin",
        signal: mine.signal,
      });
      if (res.status === 401) {
        location.assign("/dashboard/sign-in");
        return;
      }
      const answer = (await res.json()) as PreviewAnswer | PreviewError;
      if (mine !== inFlight) return;
      if (!res.ok || !("pdf" in answer)) {
        const e = answer as PreviewError;
        say(`Not rendered: ${e.message}`, "error");
        showWarnings([]);
        return;
      }
      const next = URL.createObjectURL(pdfBlob(answer.pdf));
      frame.src = next;
      if (shown) URL.revokeObjectURL(shown);
      shown = next;
      sequence++;
      // For whoever watches the page (the end-to-end test measures keystroke to PDF with these).
      frame.dataset.sequence = String(sequence);
      frame.dataset.renderedAt = String(performance.now());
      const took = Math.round(performance.now() - started);
      say(`${answer.pages} ${answer.pages === 1 ? "page" : "pages"}, ${sizeOf(answer.bytes)} · updated in ${took} ms`, "ok");
      showWarnings(answer.warnings);
    } catch (e) {
      if ((e as Error).name === "AbortError") return;
      say("Not rendered: the server could not be reached. It tries again on your next change.", "error");
    }
  }

  const changed = () => {
    // Stale from the first keystroke: busy until the PDF of what is typed now is in the frame.
    panel.setAttribute("aria-busy", "true");
    clearTimeout(timer);
    timer = setTimeout(render, DEBOUNCE_MS);
  };
  form.addEventListener("input", changed);
  form.addEventListener("change", changed);
  // The first preview, of what the page opened with, once the page has loaded (it competes with nothing then).
  if (document.readyState === "complete") void render();
  else window.addEventListener("load", () => void render(), { once: true });
  return changed;
}
