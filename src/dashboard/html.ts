// Escaping HTML templates: every interpolated value is escaped unless it is already Html.
export class Html {
  constructor(readonly value: string) {}
  toString() {
    return this.value;
  }
}

const entities: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

export const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => entities[c]!);

function render(v: unknown): string {
  if (v instanceof Html) return v.value;
  if (Array.isArray(v)) return v.map(render).join("");
  if (v === null || v === undefined || v === false) return "";
  return escapeHtml(String(v));
}

/** `html\`<p>${text}</p>\``: interpolations are escaped; arrays and nested Html are joined as is. */
export function html(strings: TemplateStringsArray, ...values: unknown[]): Html {
  let out = strings[0]!;
  for (let i = 0; i < values.length; i++) out += render(values[i]) + strings[i + 1]!;
  return new Html(out);
}

/** Formatting shared by the pages. */
export const fmt = {
  time(ms: number | null | undefined): Html {
    if (ms == null) return html`<span class="sub">never</span>`;
    const iso = new Date(ms).toISOString();
    return html`<time datetime="${iso}">${iso.slice(0, 19).replace("T", " ")} UTC</time>`;
  },
  size(bytes: number | null | undefined): string {
    if (bytes == null) return "—";
    if (bytes < 1024) return `${bytes} B`;
    if (bytes < 1024 ** 2) return `${(bytes / 1024).toFixed(1)} KB`;
    return `${(bytes / 1024 ** 2).toFixed(1)} MB`;
  },
  duration(ms: number | null | undefined): string {
    if (ms == null) return "—";
    return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(2)} s`;
  },
  plural(n: number, one: string, many = `${one}s`): string {
    return `${n} ${n === 1 ? one : many}`;
  },
};
