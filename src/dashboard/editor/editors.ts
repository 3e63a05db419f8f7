// CodeMirror 6 over the page's textareas. Each textarea with data-editor="html" or "json" stays in the
// form (hidden) and is kept in sync, so saving posts the same fields with or without this script.
import { defaultKeymap, history, historyKeymap, indentWithTab } from "@codemirror/commands";
import { html } from "@codemirror/lang-html";
import { json } from "@codemirror/lang-json";
import { bracketMatching, HighlightStyle, indentOnInput, syntaxHighlighting } from "@codemirror/language";
import { EditorState, type Extension } from "@codemirror/state";
import {
  Decoration,
  type DecorationSet,
  drawSelection,
  EditorView,
  highlightActiveLine,
  highlightActiveLineGutter,
  keymap,
  lineNumbers,
  MatchDecorator,
  ViewPlugin,
  type ViewUpdate,
} from "@codemirror/view";
import { tags as t } from "@lezer/highlight";

/** EJS tags (<% %>, <%= %>, <%- %>) inside the HTML: the HTML grammar does not know them, so they are marked on top of it. */
const ejsTag = new MatchDecorator({
  regexp: /<%[_=\-#]?[\s\S]*?[_-]?%>/g,
  decoration: Decoration.mark({ class: "cm-ejs" }),
});

const ejsHighlight = ViewPlugin.fromClass(
  class {
    decorations: DecorationSet;
    constructor(view: EditorView) {
      this.decorations = ejsTag.createDeco(view);
    }
    update(u: ViewUpdate) {
      this.decorations = ejsTag.updateDeco(u, this.decorations);
    }
  },
  { decorations: (p) => p.decorations },
);

/**
 * Token colours chosen for WCAG AA: each has at least 4.5:1 contrast on white, on the active line's
 * tint and on the EJS tags' background (CodeMirror's default style has colours that do not).
 */
const accessibleColours = HighlightStyle.define([
  { tag: [t.keyword, t.tagName, t.typeName], color: "#1f4fa8" },
  { tag: [t.attributeName, t.propertyName], color: "#7a3e00" },
  { tag: [t.string, t.attributeValue, t.special(t.string)], color: "#0b6b2f" },
  { tag: [t.number, t.bool, t.null, t.atom], color: "#8a1f6b" },
  { tag: t.comment, color: "#5b6677", fontStyle: "italic" },
  { tag: [t.angleBracket, t.punctuation, t.bracket, t.separator], color: "#4b5565" },
  { tag: t.invalid, color: "#b42318" },
  { tag: [t.variableName, t.definition(t.variableName)], color: "#1c2330" },
]);

export type EditorKind = "html" | "json";

/** Replaces the textarea with an editor; returns it, or undefined when the textarea is not one of ours. */
export function mountEditor(textarea: HTMLTextAreaElement, onChange: () => void): EditorView | undefined {
  const kind = textarea.dataset.editor as EditorKind | undefined;
  if (kind !== "html" && kind !== "json") return undefined;
  const label = textarea.labels?.[0];
  if (label && !label.id) label.id = `${textarea.id}-label`;
  const content: Record<string, string> = { "aria-multiline": "true", role: "textbox" };
  if (label) content["aria-labelledby"] = label.id;
  const described = textarea.getAttribute("aria-describedby");
  if (described) content["aria-describedby"] = described;
  if (textarea.readOnly) content["aria-readonly"] = "true";

  const extensions: Extension[] = [
    lineNumbers(),
    highlightActiveLineGutter(),
    highlightActiveLine(),
    history(),
    drawSelection(),
    indentOnInput(),
    bracketMatching(),
    syntaxHighlighting(accessibleColours),
    keymap.of([...defaultKeymap, ...historyKeymap, indentWithTab]),
    EditorView.lineWrapping,
    EditorView.contentAttributes.of(content),
    EditorState.readOnly.of(textarea.readOnly),
    EditorView.updateListener.of((u) => {
      if (!u.docChanged) return;
      textarea.value = u.state.doc.toString();
      onChange();
    }),
    kind === "html" ? [html(), ejsHighlight] : json(),
  ];
  const view = new EditorView({ doc: textarea.value, extensions });
  view.dom.classList.add("code-editor");
  view.dom.dataset.editorFor = textarea.id;
  textarea.after(view.dom);
  // Hidden but still submitted: the form and the preview read the textarea, which the listener keeps current.
  textarea.hidden = true;
  // Tab indents inside the editor; Escape then Tab leaves it (CodeMirror's own convention), said in the hint.
  label?.addEventListener("click", () => view.focus());
  return view;
}
