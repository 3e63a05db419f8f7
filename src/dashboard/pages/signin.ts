// The sign-in page: an access key in, a session cookie out. The key field is a password field
// (not kept by the browser's form history) and the key never appears in a URL.
import { html } from "../html";
import { bare } from "../layout";
import { type Notice, notice } from "./common";

export function signInPage(o: { csrf: string; message?: Notice }) {
  return bare(
    "Sign in",
    html`<section class="panel" aria-labelledby="signin-title">
  <h1 id="signin-title">Sign in</h1>
  <p class="sub">Use an access key of your account. An operator mints the first one on the server with <code>reportgen admin create-key --name NAME</code>.</p>
  ${notice(o.message)}
  <form method="post" action="/dashboard/sign-in">
    <input type="hidden" name="_csrf" value="${o.csrf}">
    <div class="field">
      <label for="key">Access key</label>
      <input id="key" name="key" type="password" required autocomplete="off" spellcheck="false" autocapitalize="off" maxlength="200" aria-describedby="key-hint" autofocus>
      <p id="key-hint" class="hint">Starts with <code>rg_</code>. It is checked once and exchanged for a session; this browser does not keep it.</p>
    </div>
    <button class="button" type="submit">Sign in</button>
  </form>
</section>`,
  );
}
