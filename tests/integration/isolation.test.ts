// What a template can reach: no host objects from EJS, no prototype pollution across reports,
// and no state carried between reports on the reused Chromium pages.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { generate, pdfText, type TestApp, useRenderApp, waitForReport } from "../helpers/app";

// Real Chromium and sandboxes on a 2-core machine: a busy machine must slow tests, not fail them.
setDefaultTimeout(60_000);

let t: TestApp;
useRenderApp((a) => (t = a));

const squash = (s: string) => s.replace(/\s+/g, "");
const flat = (s: string) => s.replace(/[ \t]+/g, " ");

async function submit(body: unknown): Promise<string> {
  const res = await t.request("POST", "/api/v1/generate-pdf-async", { body });
  expect(res.status).toBe(202);
  return ((await res.json()) as { report_id: string }).report_id;
}

/** Host secrets that must never appear in a PDF or an error message. */
function expectNoHostData(s: string) {
  const sq = squash(s);
  expect(sq).not.toContain("root:x:0:0");
  expect(sq).not.toContain(squash(process.env.PATH!));
  // Individual PATH entries too (pdftotext may wrap a long line).
  for (const dir of process.env.PATH!.split(":").filter((d) => d.length > 8)) expect(sq).not.toContain(dir);
  if (process.env.HOME && process.env.HOME.length > 1) expect(sq).not.toContain(process.env.HOME);
  // What host objects print as, had one been reached.
  expect(sq).not.toContain("[objectprocess]");
  expect(sq).not.toContain("[objectObject]");
}

describe("templates cannot reach the host", () => {
  const hostile: [string, string][] = [
    ["process.env.HOME", "<p>H[<%= process.env.HOME %>]</p>"],
    ["Function constructor escape", "<p>H[<%= this.constructor.constructor('return process')().env.PATH %>]</p>"],
    ["require('fs')", "<p>H[<%= require('fs').readFileSync('/etc/passwd') %>]</p>"],
    ["sloppy this", "<p>H[<%= (function(){return this})().process %>]</p>"],
    ["include('/etc/passwd')", "<p>H[<%- include('/etc/passwd') %>]</p>"],
    ["dynamic import", "<p>H[<% import('fs') %>]</p>"],
    ["globalThis.process", "<p>H[<%= globalThis.process && globalThis.process.env.HOME %>]</p>"],
    ["constructor chain from data", "<p>H[<%= locals.constructor.constructor('return process')().env.HOME %>]</p>"],
    ["constructor chain from an array", "<p>H[<%= [].constructor.constructor('return process')().env.HOME %>]</p>"],
    ["escape-function's realm", "<p>H[<%= escapeFn.constructor('return process')().env.HOME %>]</p>"],
  ];

  test.each(hostile)("%s: failed with a readable error, or printed no host data", async (_name, html_template) => {
    const { report, pdf } = await generate(t, { engine: "ejs", html_template, data: { x: 1 } });
    expect(["succeeded", "failed"]).toContain(report.status);
    if (report.status === "failed") {
      expect(typeof report.error.code).toBe("string");
      expect(report.error.code).toMatch(/^[a-z_]+$/);
      expect(report.error.message.length).toBeGreaterThan(0);
      expectNoHostData(report.error.message);
      const dl = await t.request("GET", `/api/v1/reports/${report.report_id}/download`);
      expect(dl.status).toBe(409);
      const body = (await dl.json()) as { error: string; message: string };
      expect(body.error).toBe("report_failed");
      expectNoHostData(body.message);
    } else {
      const text = await pdfText(pdf!);
      expectNoHostData(text);
    }
  });

  test("Bun, process and require are simply undefined inside a template", async () => {
    const { report, pdf } = await generate(t, {
      engine: "ejs",
      html_template:
        "<p>B[<%= typeof Bun %>] P[<%= typeof process %>] R[<%= typeof require %>] F[<%= typeof fetch %>]</p>" +
        '<p>C[<%= [].constructor.constructor(\'return typeof process + "/" + typeof require + "/" + typeof Bun\')() %>]</p>' +
        "<p>G[<%= typeof globalThis.process %>/<%= typeof (function(){ return this })().Bun %>]</p>",
      data: {},
    });
    expect(report.status).toBe("succeeded");
    const text = flat(await pdfText(pdf!));
    expect(text).toContain("B[undefined]");
    expect(text).toContain("P[undefined]");
    expect(text).toContain("R[undefined]");
    expect(text).toContain("F[undefined]");
    expect(text).toContain("C[undefined/undefined/undefined]");
    expect(text).toContain("G[undefined/undefined]");
  });

  test("the sandbox rejects the escape with template_error (not a crash)", async () => {
    const { report } = await generate(t, { engine: "ejs", html_template: "<%= require('fs') %>", data: {} });
    expect(report.status).toBe("failed");
    expect(report.error.code).toBe("template_error");
    expect(report.error.message).toMatch(/require/);
  });
});

describe("prototype pollution", () => {
  test("__proto__ and constructor.prototype in data do not pollute the template's objects or the server", async () => {
    // A JSON text: an object literal with "__proto__" would set the prototype instead of a key.
    const body =
      '{"engine":"ejs","html_template":"<p>P[<%= ({}).polluted %>] T[<%= typeof ({}).polluted %>] X[<%= ({}).x %>] O[<%= Object.keys(locals).sort().join(\\",\\") %>]</p>",' +
      '"data":{"__proto__":{"polluted":"yes"},"constructor":{"prototype":{"x":1}}}}';
    const res = await t.request("POST", "/api/v1/generate-pdf-async", { body });
    expect(res.status).toBe(202);
    const { report_id } = (await res.json()) as { report_id: string };
    const report = await waitForReport(t, report_id);
    expect(report.status).toBe("succeeded");
    const dl = (await (await t.request("GET", `/api/v1/reports/${report_id}/download`)).json()) as { data: string };
    const pdf = new Uint8Array(await (await t.app.http!.handle(new Request(dl.data))).arrayBuffer());
    const text = flat(await pdfText(pdf));
    expect(text).toContain("P[]");
    expect(text).toContain("T[undefined]");
    expect(text).toContain("X[]");
    expect(text).not.toContain("yes");
    // The server's own realm is untouched.
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(({} as Record<string, unknown>).x).toBeUndefined();
    expect(Object.hasOwn(Object.prototype, "polluted")).toBe(false);

    const next = await generate(t, { engine: "ejs", html_template: "<p>after <%= n %> ok</p>", data: { n: 42 } });
    expect(next.report.status).toBe("succeeded");
    expect(flat(await pdfText(next.pdf!))).toContain("after 42 ok");
  });

  test("Object.prototype changed by one report is not seen by the next (on every sandbox)", async () => {
    const sandboxes = t.app.config.sandboxes;
    // Several at once so every sandbox process runs a polluting template.
    const polluters = await Promise.all(
      Array.from({ length: sandboxes * 2 }, () =>
        submit({
          engine: "ejs",
          html_template: "<% Object.prototype.leak = 'L'; Array.prototype.join = function(){ return 'J' } %><p>set <%= ({}).leak %></p>",
          data: {},
        }),
      ),
    );
    for (const id of polluters) {
      const r = await waitForReport(t, id);
      expect(r.status).toBe("succeeded");
    }
    const checkers = await Promise.all(
      Array.from({ length: sandboxes * 2 }, () =>
        submit({ engine: "ejs", html_template: "<p>LEAK[<%= ({}).leak %>] JOIN[<%= [1,2].join('-') %>]</p>", data: {} }),
      ),
    );
    for (const id of checkers) {
      const r = await waitForReport(t, id);
      expect(r.status).toBe("succeeded");
      const dl = (await (await t.request("GET", `/api/v1/reports/${id}/download`)).json()) as { data: string };
      const text = flat(await pdfText(new Uint8Array(await (await t.app.http!.handle(new Request(dl.data))).arrayBuffer())));
      expect(text).toContain("LEAK[]");
      expect(text).toContain("JOIN[1-2]");
    }
    expect(({} as Record<string, unknown>).leak).toBeUndefined();
  });
});

describe("page state does not survive between reports on reused pages", () => {
  const setState =
    "<p>A</p><script>var e=Date.now()+300;while(Date.now()<e){}" +
    "window.leak='A'; window.name='NAME-A'; try{localStorage.setItem('k','A')}catch(e){}; try{document.cookie='c=A'}catch(e){}; try{sessionStorage.setItem('s','A')}catch(e){};" +
    "history.pushState && (function(){try{history.pushState({}, '', '#A')}catch(e){}})();" +
    "setTimeout(function(){ document.title = 'TIMER-A' }, 50);" +
    "document.body.appendChild(document.createTextNode('SET:' + [typeof window.leak, window.name, location.hash].join('|')));</script>";
  // about:blank has an opaque origin: storage and cookie access throw SecurityError there, so
  // every access is guarded (an unguarded throw would stop the script and print nothing).
  const readState =
    "<div id=o></div><script>document.getElementById('o').textContent = 'STATE:' + [typeof window.leak, window.name||'-', " +
    "(function(){try{return localStorage.getItem('k')}catch(e){return 'noLS'}})(), (function(){try{return document.cookie||'-'}catch(e){return 'noCookie'}})(), " +
    "(function(){try{return sessionStorage.getItem('s')}catch(e){return 'noSS'}})(), location.hash||'-'].join('|')</script>";

  test("globals, window.name, storage and cookies set by report A are gone for every later report", async () => {
    const pages = t.app.config.renderPages * t.app.config.renderWorkers;
    // A on every page: concurrent and slow enough (300 ms) that each page gets one.
    const as = await Promise.all(Array.from({ length: pages }, () => submit({ engine: "raw", html_template: setState })));
    for (const id of as) {
      expect((await waitForReport(t, id)).status).toBe("succeeded");
      // A really did set its state (so B finding none means it was reset).
      const dl = (await (await t.request("GET", `/api/v1/reports/${id}/download`)).json()) as { data: string };
      const text = flat(await pdfText(new Uint8Array(await (await t.app.http!.handle(new Request(dl.data))).arrayBuffer())));
      expect(text).toContain("SET:string|NAME-A|#A");
    }

    const check = async (id: string) => {
      const r = await waitForReport(t, id);
      expect(r.status).toBe("succeeded");
      const dl = (await (await t.request("GET", `/api/v1/reports/${id}/download`)).json()) as { data: string };
      const text = flat(await pdfText(new Uint8Array(await (await t.app.http!.handle(new Request(dl.data))).arrayBuffer())));
      const m = /STATE:(\S+)/.exec(text);
      expect(m).not.toBeNull();
      const [leak, name, ls, cookie, ss, hash] = m![1]!.split("|");
      expect(leak).toBe("undefined");
      expect(name).toBe("-");
      expect(["null", "noLS"]).toContain(ls!);
      expect(["-", "noCookie"]).toContain(cookie!);
      expect(["null", "noSS"]).toContain(ss!);
      expect(hash).toBe("-");
      expect(m![1]).not.toContain("A");
      expect(text).toMatch(/STATE:undefined\|-\|/);
    };
    // More B reports than pages, one after another (each reuses a page A dirtied) ...
    for (let i = 0; i < pages + 1; i++) await check(await submit({ engine: "raw", html_template: readState }));
    // ... and concurrently, so every page is certainly reused.
    const bs = await Promise.all(Array.from({ length: pages * 2 }, () => submit({ engine: "raw", html_template: readState })));
    for (const id of bs) await check(id);
  });

  test("a service worker cannot be registered", async () => {
    const html =
      "<div id=o>SW:pending</div><script>var o=document.getElementById('o');" +
      "try{ if(!('serviceWorker' in navigator) || !navigator.serviceWorker){ o.textContent='SW:unavailable' } else {" +
      " o.textContent='SW:called'; navigator.serviceWorker.register('data:text/javascript,self.x=1').then(function(){ o.textContent='SW:REGISTERED' }, function(){ o.textContent='SW:rejected' }) } }" +
      "catch(e){ o.textContent='SW:threw' }</script>" +
      // An image with a data: URL lets the promise settle before the load event prints the page.
      "<img src='data:image/gif;base64,R0lGODlhAQABAAAAACw='>";
    const { report, pdf } = await generate(t, { engine: "raw", html_template: html });
    expect(report.status).toBe("succeeded");
    const text = flat(await pdfText(pdf!));
    const m = /SW:(\w+)/.exec(text);
    expect(m).not.toBeNull();
    expect(["unavailable", "threw", "rejected", "called"]).toContain(m![1]!);
    expect(text).not.toContain("REGISTERED");
  });
});

describe("reports rendering at the same time share nothing (all pages of a Chromium share one browser context)", () => {
  // Its own app with more pages than the file's, so several reports really print at once.
  const PAGES = 4;
  let c: TestApp;
  useRenderApp((a) => (c = a), { renderPages: PAGES, renderWorkers: 1 });

  /**
   * For LOOP_MS each report writes its own tag into every channel a page could share, and reads back
   * whatever is there; any other report's tag it finds is a leak. BroadcastChannel messages are
   * delivered while frames after the loop load, before the load event (when the results are written), and a second channel
   * object in the same document proves that delivery works at all. Storage that an opaque origin
   * refuses is recorded as the error it throws.
   */
  const LOOP_MS = 2000;
  /**
   * Frames loaded from data: URLs, nested: the load event waits for each navigation, which goes
   * through Chromium's browser process, so the page's event loop turns and messages arrive first.
   */
  const nest = (depth: number): string =>
    depth === 0
      ? ""
      : `<iframe style="display:none" src='data:text/html,${encodeURIComponent(nest(depth - 1)).replace(/'/g, "%27")}'></iframe>`;
  const YIELD = nest(3);
  const probe = (me: string, all: string[]) => `<!DOCTYPE html><html><body>
<iframe style="display:none" srcdoc="f"></iframe><iframe style="display:none" srcdoc="f"></iframe>
<div id=o style="word-break: break-all; font: 9px monospace">pending</div>
<script>
var ME = ${JSON.stringify(me)}, ALL = ${JSON.stringify(all)}, seen = {}, own = {}, errs = {};
function note(ch, v) { if (v == null) return; v = String(v); ALL.forEach(function (t) { if (t !== ME && v.indexOf(t) >= 0) seen[ch + '-' + t] = 1 }); if (v.indexOf(ME) >= 0) own[ch] = 1 }
function guard(ch, f) { try { f() } catch (e) { errs[ch] = e.name } }
function dump(ch, s) { s.setItem('k-' + ME, ME); for (var i = 0; i < s.length; i++) note(ch, s.key(i) + '=' + s.getItem(s.key(i))) }
window.name = 'RG-' + ME;
window['g_' + ME] = ME;
try { history.replaceState({ who: ME }, '', '#' + ME) } catch (e) { errs.history = e.name }
var tx = new BroadcastChannel('rg'), rx = new BroadcastChannel('rg');
rx.onmessage = function (e) { note('broadcast', e.data) };
guard('indexedDB', function () { indexedDB.open('rg-' + ME) });
guard('sharedWorker', function () { new SharedWorker('data:text/javascript,onconnect=function(e){}', 'rg') });
guard('serviceWorker', function () { if (!navigator.serviceWorker) throw { name: 'absent' }; navigator.serviceWorker.register('data:text/javascript,') });
own.cacheApi = typeof caches;
// Another report's window, looked up by its name (a popup, if any, is closed by the service).
ALL.forEach(function (t) { if (t !== ME) guard('namedWindow', function () { var w = window.open('', 'RG-' + t); if (w && w.length > 0) seen['namedWindow-' + t] = 1 }) });
</script>
${YIELD}
<script>
var start = Date.now(), end = start + ${LOOP_MS};
while (Date.now() < end) {
  guard('localStorage', function () { dump('localStorage', localStorage) });
  guard('sessionStorage', function () { dump('sessionStorage', sessionStorage) });
  guard('cookie', function () { document.cookie = 'k-' + ME + '=' + ME; note('cookie', document.cookie) });
  guard('domain', function () { document.domain = document.domain; note('domain', document.domain) });
  tx.postMessage(ME);
  ALL.forEach(function (t) { note('global', window['g_' + t]) });
  note('name', window.name);
  note('hash', location.hash);
  note('history', JSON.stringify(history.state));
  note('frames', window.frames.length + '|' + (window.top === window) + '|' + (window.opener === null));
}
</script>
${YIELD}${YIELD}
<script>
window.addEventListener('load', function () {
  var e = Object.keys(errs).sort().map(function (k) { return k + '=' + errs[k] });
  document.getElementById('o').textContent = 'RESULT ' + ME + ' ' + start + ' ' + end + ' SEEN=' + (Object.keys(seen).sort().join(',') || 'none') +
    ' OWN=' + Object.keys(own).sort().map(function (k) { return k === 'cacheApi' ? k + '-' + own[k] : k }).join(',') + ' ERR=' + (e.join(',') || 'none');
});
</script></body></html>`;

  test("storage, cookies, messaging, window state and frames of concurrent reports stay apart", async () => {
    const rounds = 2;
    for (let round = 0; round < rounds; round++) {
      const tags = Array.from({ length: PAGES }, (_, i) => `Tg${round}${i}${Math.random().toString(36).slice(2, 7)}`);
      const ids = await Promise.all(
        tags.map(async (tag) => {
          const res = await c.request("POST", "/api/v1/generate-pdf-async", { body: { engine: "raw", html_template: probe(tag, tags) } });
          expect(res.status).toBe(202);
          return ((await res.json()) as { report_id: string }).report_id;
        }),
      );
      const results: { tag: string; start: number; end: number; seen: string; own: string[]; errs: Record<string, string> }[] = [];
      for (const [i, id] of ids.entries()) {
        const report = await waitForReport(c, id, 60_000);
        expect({ status: report.status, error: report.error }).toEqual({ status: "succeeded", error: null });
        const dl = (await (await c.request("GET", `/api/v1/reports/${id}/download`)).json()) as { data: string };
        const text = squash(await pdfText(new Uint8Array(await (await c.app.http!.handle(new Request(dl.data))).arrayBuffer())));
        const m = /RESULT(\w+?)(\d{13})(\d{13})SEEN=(\S+?)OWN=(\S+?)ERR=(\S+)$/.exec(text);
        expect(m).not.toBeNull();
        const [, tag, start, end, seen, ownList, errList] = m!;
        expect(tag).toBe(tags[i]!);
        results.push({
          tag: tag!,
          start: Number(start),
          end: Number(end),
          seen: seen!,
          own: ownList!.split(","),
          errs: Object.fromEntries(errList === "none" ? [] : errList!.split(",").map((kv) => kv.split("=") as [string, string])),
        });
      }
      for (const r of results) {
        // Nothing of any other report, on any channel.
        expect(r.seen).toBe("none");
        for (const other of tags) if (other !== r.tag) expect(JSON.stringify(r)).not.toContain(other);
        // The probes ran and each channel worked within its own page: its own tag came back on every
        // channel that a page may use, including a BroadcastChannel message from its own document.
        for (const ch of ["broadcast", "global", "name", "hash", "history"]) expect(r.own).toContain(ch);
        // What an opaque origin refuses (what makes one shared context safe): if Chromium ever allowed
        // one of these, this test must be revisited with a check of its contents.
        for (const ch of ["localStorage", "sessionStorage", "cookie", "indexedDB", "domain", "sharedWorker"])
          expect(r.errs[ch]).toBe("SecurityError");
        expect(r.own).toContain("cacheApi-undefined");
        expect(r.errs.serviceWorker).toBeDefined();
      }
      // The reports really ran at the same time (on a loaded machine a page may start late, so at least
      // two of them; those that did not overlap checked what an earlier report left on a reused page).
      const overlapping = results.filter((r) => results.some((o) => o !== r && o.start < r.end && r.start < o.end));
      expect(overlapping.length).toBeGreaterThanOrEqual(2);
    }
  });
});
