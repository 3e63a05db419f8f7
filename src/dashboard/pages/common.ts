// Pieces shared by several pages: notices, confirmation and error pages.
import { type Html, html } from "../html";
import { bare, layout, type Section, type Viewer } from "../layout";

export type Notice = { kind: "ok" | "error" | "warn"; text: Html | string };

export function notice(n: Notice | undefined): Html {
  if (!n) return html``;
  // Errors interrupt (alert); confirmations are announced politely (status).
  return html`<div class="notice ${n.kind}" role="${n.kind === "error" ? "alert" : "status"}"><p>${n.text}</p></div>`;
}

export function pageHead(title: string, lead: Html | string, extra: Html | string = ""): Html {
  return html`<div class="page-head"><div><h1>${title}</h1><p>${lead}</p></div>${extra}</div>`;
}

/** A page that asks before something is deleted, naming what goes. Works without JavaScript. */
export function confirmPage(o: {
  viewer: Viewer;
  section: Section;
  title: string;
  question: Html;
  consequence: string;
  action: string;
  button: string;
  cancel: string;
}): Html {
  return layout({
    title: o.title,
    section: o.section,
    viewer: o.viewer,
    body: html`<section class="panel narrow" aria-labelledby="confirm-title">
  <h1 id="confirm-title">${o.title}</h1>
  <p>${o.question}</p>
  <p class="sub">${o.consequence}</p>
  <form method="post" action="${o.action}" class="actions">
    <input type="hidden" name="_csrf" value="${o.viewer.csrfToken}">
    <button class="button danger" type="submit">${o.button}</button>
    <a class="button secondary" href="${o.cancel}">Cancel</a>
  </form>
</section>`,
  });
}

/** An error page: inside the dashboard when signed in, else on its own. */
export function errorPage(o: {
  title: string;
  message: string;
  viewer?: Viewer;
  section?: Section;
  back?: { href: string; label: string };
}): Html {
  const back = o.back ?? { href: "/dashboard", label: "Back to the dashboard" };
  const body = html`<section class="panel empty" aria-labelledby="error-title">
  <h1 id="error-title">${o.title}</h1>
  <p>${o.message}</p>
  <p><a class="button secondary" href="${back.href}">${back.label}</a></p>
</section>`;
  return o.viewer ? layout({ title: o.title, section: o.section ?? "overview", viewer: o.viewer, body }) : bare(o.title, body);
}
