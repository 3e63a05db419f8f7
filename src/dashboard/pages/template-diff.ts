// The diff between two versions of a template: a line diff (jsdiff's diffLines, a Myers diff) of each
// part that changed (template, sample data, schema, options), shown as a table with both line numbers.
import { diffLines } from "diff";
import { type Html, html } from "../html";
import { layout, type Viewer } from "../layout";
import { pageHead } from "./common";

export interface DiffSide {
  version: number;
  parts: Record<DiffPart, string>;
}

export type DiffPart = "template" | "sample data" | "schema" | "options";
export const diffParts: DiffPart[] = ["template", "sample data", "schema", "options"];

interface Line {
  kind: "same" | "added" | "removed";
  old?: number;
  new?: number;
  text: string;
}

/** Line by line, with the numbers each line has in the old and the new text. */
export function lineDiff(before: string, after: string): Line[] {
  const out: Line[] = [];
  let o = 1;
  let n = 1;
  // Both texts end in a newline first: a line that only gained one (text typed after it) is not a change.
  // CRLF and LF compare equal (templates sent through the API may have either).
  const ended = (raw: string) => {
    const text = raw.replace(/\r\n?/g, "\n");
    return text === "" || text.endsWith("\n") ? text : `${text}\n`;
  };
  for (const change of diffLines(ended(before), ended(after))) {
    const lines = change.value.replace(/\n$/, "").split("\n");
    for (const text of lines) {
      if (change.added) out.push({ kind: "added", new: n++, text });
      else if (change.removed) out.push({ kind: "removed", old: o++, text });
      else out.push({ kind: "same", old: o++, new: n++, text });
    }
  }
  return out;
}

const marks = { same: " ", added: "+", removed: "−" };
const spoken = { same: "", added: "Added: ", removed: "Removed: " };

function diffTable(part: DiffPart, lines: Line[]): Html {
  const added = lines.filter((l) => l.kind === "added").length;
  const removed = lines.filter((l) => l.kind === "removed").length;
  const id = `diff-${part.replace(" ", "-")}`;
  return html`<section class="panel" aria-labelledby="${id}">
  <h2 id="${id}">${part[0]!.toUpperCase()}${part.slice(1)} <span class="sub">${added} added, ${removed} removed</span></h2>
  <div class="table-wrap diff-wrap"><table class="diff">
    <caption class="visually-hidden">Changes to the ${part}: line in the old version, line in the new version, change, text</caption>
    <thead><tr><th scope="col">Old</th><th scope="col">New</th><th scope="col"><span class="visually-hidden">Change</span></th><th scope="col">Line</th></tr></thead>
    <tbody>${lines.map(
      (l) =>
        html`<tr class="${l.kind}"><td class="num">${l.old ?? ""}</td><td class="num">${l.new ?? ""}</td><td class="mark" aria-hidden="true">${marks[l.kind]}</td><td class="code"><span class="visually-hidden">${spoken[l.kind]}</span>${l.text}</td></tr>`,
    )}</tbody>
  </table></div>
</section>`;
}

export function diffPage(viewer: Viewer, o: { templateId: string; name: string; from: DiffSide; to: DiffSide; versions: number[] }): Html {
  const changed = diffParts.filter((p) => o.from.parts[p] !== o.to.parts[p]);
  const pick = (name: string, label: string, selected: number) => html`<div class="field">
    <label for="${name}">${label}</label>
    <select id="${name}" name="${name}">${o.versions.map((v) => html`<option value="${v}"${v === selected ? html` selected` : ""}>Version ${v}</option>`)}</select>
  </div>`;
  return layout({
    title: `${o.name}: version ${o.from.version} → ${o.to.version}`,
    section: "templates",
    viewer,
    body: html`${pageHead(`Changes from version ${o.from.version} to ${o.to.version}`, html`Template <a href="/dashboard/templates/${o.templateId}">${o.name}</a>`)}
<form method="get" action="/dashboard/templates/${o.templateId}/diff" class="panel row" aria-label="Versions to compare">
  ${pick("from", "From", o.from.version)}
  ${pick("to", "To", o.to.version)}
  <button class="button secondary" type="submit">Compare</button>
</form>
${
  changed.length
    ? changed.map((p) => diffTable(p, lineDiff(o.from.parts[p], o.to.parts[p])))
    : html`<div class="panel empty"><h2>No differences</h2><p>Versions ${o.from.version} and ${o.to.version} are the same.</p></div>`
}`,
  });
}
