// Destinations: where the account's reports are delivered (options.deliver): a list with where each
// goes and a Test button, forms to add an S3 bucket, an SFTP server or e-mail recipients, and delete
// behind a confirmation. Secrets are write-only: reportgen keeps them sealed and never shows them.
import type { Destination } from "../../modules/destinations/service";
import type { EmailSettings, S3Settings, SftpSettings } from "../../modules/destinations/settings";
import { type Html, html } from "../html";
import { layout, type Viewer } from "../layout";
import { type Notice, notice, pageHead } from "./common";
import { cardTable, deleteLink, emptyPanel } from "./table";

/** Where a destination sends reports, in one line. */
function whereTo(d: Destination): Html {
  if (d.type === "s3") {
    const s = d.settings as S3Settings;
    return html`<span class="mono">s3://${s.bucket}/${s.prefix}</span><span class="sub block">${s.endpoint} · ${s.region}</span>`;
  }
  if (d.type === "sftp") {
    const s = d.settings as SftpSettings;
    return html`<span class="mono">${s.user}@${s.host}:${String(s.port)}${s.directory ? ` ${s.directory}` : ""}</span><span class="sub block">host key ${s.host_key.slice(0, 32)}… · ${s.auth === "password" ? "password" : "private key"}</span>`;
  }
  return html`${(d.settings as EmailSettings).to.join(", ")}`;
}

export type DestinationForm = "s3" | "sftp" | "email";

const field = (id: string, label: string, input: Html, hint?: string) =>
  html`<div class="field"><label for="${id}">${label}</label>${input}${hint ? html`<p id="${id}-hint" class="hint">${hint}</p>` : ""}</div>`;
const text = (id: string, name: string, o: { required?: boolean; placeholder?: string; type?: string; hint?: boolean } = {}) =>
  html`<input id="${id}" name="${name}" type="${o.type ?? "text"}"${o.required ? html` required` : ""}${o.placeholder ? html` placeholder="${o.placeholder}"` : ""}${o.hint ? html` aria-describedby="${id}-hint"` : ""} autocomplete="off">`;

export function destinationsPage(viewer: Viewer, o: { destinations: Destination[]; message?: Notice }) {
  const form = (type: DestinationForm, title: string, fields: Html) => html`<section class="panel" aria-labelledby="add-${type}">
  <h2 id="add-${type}">${title}</h2>
  <form method="post" action="/dashboard/destinations" novalidate>
    <input type="hidden" name="_csrf" value="${viewer.csrfToken}">
    <input type="hidden" name="type" value="${type}">
    ${field(`${type}-name`, "Name", text(`${type}-name`, "name", { required: true, placeholder: "e.g. archive" }))}
    ${fields}
    <button class="button" type="submit">Add</button>
  </form>
</section>`;
  const rows = o.destinations.map(
    (d) => html`<tr>
  <td data-label="Name"><strong>${d.name}</strong> <span class="badge">${d.type}</span></td>
  <td data-label="Where">${whereTo(d)}</td>
  <td data-label="Destination id" class="mono">${d.id}</td>
  <td data-label="Actions"><form method="post" action="/dashboard/destinations/${d.id}/test" class="inline">
    <input type="hidden" name="_csrf" value="${viewer.csrfToken}">
    <button class="button secondary" type="submit" aria-label="Test destination ${d.name}">Test</button>
  </form> ${deleteLink(`/dashboard/destinations/${d.id}/delete`, `destination ${d.name}`)}</td>
</tr>`,
  );
  return layout({
    title: "Destinations",
    section: "destinations",
    viewer,
    body: html`${pageHead("Destinations", html`Reports go here once their PDF is stored, when a request names them in <span class="mono">options.deliver</span>. Secrets are stored sealed and never shown.`)}
${notice(o.message)}
<section aria-labelledby="list-title">
  <h2 id="list-title">Destinations of this account</h2>
  ${
    o.destinations.length
      ? cardTable({
          caption: "Destinations: name and type, where reports go, id",
          columns: ["Name", "Where", "Destination id"],
          rows,
          actions: true,
        })
      : emptyPanel("No destinations", "Add one below, or with POST /api/v1/destinations.")
  }
</section>
${form(
  "s3",
  "Add an S3 bucket",
  html`${field("s3-endpoint", "Endpoint", text("s3-endpoint", "endpoint", { placeholder: "https://s3.eu-central-1.amazonaws.com" }))}
    ${field("s3-region", "Region", text("s3-region", "region", { placeholder: "us-east-1" }))}
    ${field("s3-bucket", "Bucket", text("s3-bucket", "bucket", { required: true }))}
    ${field("s3-prefix", "Prefix", text("s3-prefix", "prefix", { placeholder: "reports/" }))}
    ${field("s3-key", "Access key id", text("s3-key", "access_key_id", { required: true }))}
    ${field("s3-secret", "Secret access key", text("s3-secret", "secret_access_key", { required: true, type: "password" }))}`,
)}
${form(
  "sftp",
  "Add an SFTP server",
  html`${field("sftp-host", "Host", text("sftp-host", "host", { required: true }))}
    ${field("sftp-port", "Port", text("sftp-port", "port", { placeholder: "22" }))}
    ${field("sftp-user", "User", text("sftp-user", "user", { required: true }))}
    ${field("sftp-hostkey", "Host key", text("sftp-hostkey", "host_key", { required: true, placeholder: "ssh-ed25519 AAAA…", hint: true }), "The server's public key, as ssh-keyscan prints it: a server showing another key is refused.")}
    ${field("sftp-dir", "Directory", text("sftp-dir", "directory", { placeholder: "/incoming" }))}
    ${field("sftp-key", "Private key", html`<textarea id="sftp-key" name="private_key" rows="4" aria-describedby="sftp-key-hint"></textarea>`, "OpenSSH or PEM, without a passphrase; or give a password instead.")}
    ${field("sftp-password", "Password", text("sftp-password", "password", { type: "password" }))}`,
)}
${form(
  "email",
  "Add e-mail recipients",
  field(
    "email-to",
    "Recipients",
    text("email-to", "to", { required: true, placeholder: "ap@buyer.example, cfo@buyer.example", hint: true }),
    "Comma-separated. Sent through the operator's SMTP server.",
  ),
)}`,
  });
}
