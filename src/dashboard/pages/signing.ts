// Signing: the account's signing identities (PKCS#12 keys for options.signature) with their
// certificate's subject, issuer, validity and fingerprint, a warning from 30 days before one expires,
// an upload form and delete behind a confirmation. The private key is never shown: reportgen keeps it sealed.
import type { SigningIdentity } from "../../modules/signing/service";
import { fmt, type Html, html } from "../html";
import { layout, type Viewer } from "../layout";
import { type Notice, notice, pageHead } from "./common";
import { cardTable, deleteLink, emptyPanel } from "./table";

/** Days before its end from which an identity's expiry is flagged. */
export const EXPIRY_WARNING_DAYS = 30;
const DAY = 86_400_000;

function validity(i: SigningIdentity, now: number): Html {
  const range = html`${fmt.time(i.notBefore)} <span class="sub">to</span> ${fmt.time(i.notAfter)}`;
  if (i.notAfter <= now) return html`${range} <span class="badge failed">Expired</span>`;
  const days = Math.ceil((i.notAfter - now) / DAY);
  if (days <= EXPIRY_WARNING_DAYS)
    return html`${range} <span class="badge expiring">Expires in ${fmt.plural(days, "day")}</span><span class="sub block">Upload a renewed certificate before then: signing with this one fails once it has expired.</span>`;
  return range;
}

export function signingPage(
  viewer: Viewer,
  o: {
    identities: SigningIdentity[];
    now?: number;
    message?: Notice;
    error?: { field: "name" | "p12" | "password"; text: string };
    name?: string;
  },
) {
  const now = o.now ?? Date.now();
  const err = (field: string) => (o.error?.field === field ? html`<p id="${field}-error" class="field-error">${o.error.text}</p>` : "");
  const invalid = (field: string) => (o.error?.field === field ? html` aria-invalid="true"` : "");
  const described = (field: string, hint?: string) =>
    html` aria-describedby="${[hint, o.error?.field === field ? `${field}-error` : undefined].filter(Boolean).join(" ")}"`;
  const expiring = o.identities.filter((i) => i.notAfter > now && i.notAfter - now <= EXPIRY_WARNING_DAYS * DAY);
  const rows = o.identities.map(
    (i) => html`<tr>
  <td data-label="Name"><strong>${i.name}</strong> <span class="sub block">uploaded ${fmt.time(i.createdAt)}</span></td>
  <td data-label="Subject">${i.subject}<span class="sub block">Issuer: ${i.issuer}${i.chainLength > 1 ? html` · chain of ${i.chainLength}` : ""}</span></td>
  <td data-label="Valid">${validity(i, now)}</td>
  <td data-label="Fingerprint (SHA-256)" class="mono fingerprint">${i.sha256Fingerprint}</td>
  <td data-label="Identity id" class="mono">${i.id}</td>
  <td data-label="Actions">${deleteLink(`/dashboard/signing/${i.id}/delete`, `signing identity ${i.name}`)}</td>
</tr>`,
  );
  return layout({
    title: "Signing",
    section: "signing",
    viewer,
    body: html`${pageHead("Signing", html`Signing identities sign PDFs with <span class="mono">options.signature</span> (PAdES). Each is a PKCS#12 key with its certificate; the key is stored sealed and never shown.`)}
${notice(o.message)}
${expiring.length ? notice({ kind: "warn", text: html`${expiring.map((i, n) => html`${n ? ", " : ""}<strong>${i.name}</strong>`)} ${expiring.length === 1 ? "expires" : "expire"} within ${EXPIRY_WARNING_DAYS} days: upload a renewed certificate.` }) : ""}
<section class="panel" aria-labelledby="upload-title">
  <h2 id="upload-title">Upload an identity</h2>
  <form method="post" action="/dashboard/signing" enctype="multipart/form-data" novalidate>
    <input type="hidden" name="_csrf" value="${viewer.csrfToken}">
    <div class="field">
      <label for="name">Name</label>
      <input id="name" name="name" type="text" required maxlength="200" value="${o.name ?? ""}" placeholder="e.g. Invoices 2026"${described("name")}${invalid("name")}>
      ${err("name")}
    </div>
    <div class="field">
      <label for="p12">PKCS#12 file (.p12, .pfx)</label>
      <input id="p12" name="p12" type="file" required accept=".p12,.pfx,application/x-pkcs12"${described("p12", "p12-hint")}${invalid("p12")}>
      <p id="p12-hint" class="hint">The key (RSA 2048+ or ECDSA P-256/P-384) with its certificate and chain, at most 2 MB.</p>
      ${err("p12")}
    </div>
    <div class="field">
      <label for="password">Password of the file</label>
      <input id="password" name="password" type="password" autocomplete="off"${described("password")}${invalid("password")}>
      ${err("password")}
    </div>
    <button class="button" type="submit">Upload</button>
  </form>
</section>
<section aria-labelledby="list-title">
  <h2 id="list-title">Identities of this account</h2>
  ${
    o.identities.length
      ? cardTable({
          caption: "Signing identities: name, certificate subject and issuer, validity, SHA-256 fingerprint, id",
          columns: ["Name", "Subject", "Valid", "Fingerprint (SHA-256)", "Identity id"],
          rows,
          actions: true,
        })
      : emptyPanel("No signing identities", "Upload one above, or with POST /api/v1/signing-identities.")
  }
</section>`,
  });
}
