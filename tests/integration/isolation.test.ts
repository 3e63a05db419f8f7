// What a template can reach: no host objects from EJS, no prototype pollution across reports,
// and no state carried between reports on the reused Chromium pages.
import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { generate, pdfText, waitForReport, type TestApp, useRenderApp } from "../helpers/app";

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
        "<p>C[<%= [].constructor.constructor('return typeof process + \"/\" + typeof require + \"/\" + typeof Bun')() %>]</p>" +
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
    expect(Object.prototype.hasOwnProperty.call(Object.prototype, "polluted")).toBe(false);

    const next = await generate(t, { engine: "ejs", html_template: "<p>after <%= n %> ok</p>", data: { n: 42 } });
    expect(next.report.status).toBe("succeeded");
    expect(flat(await pdfText(next.pdf!))).toContain("after 42 ok");
  });

  test("Object.prototype changed by one report is not seen by the next (on every sandbox)", async () => {
    const sandboxes = t.app.config.sandboxes;
    // Several at once so every sandbox process runs a polluting template.
    const polluters = await Promise.all(
      Array.from({ length: sandboxes * 2 }, () => submit({ engine: "ejs", html_template: "<% Object.prototype.leak = 'L'; Array.prototype.join = function(){ return 'J' } %><p>set <%= ({}).leak %></p>", data: {} })),
    );
    for (const id of polluters) {
      const r = await waitForReport(t, id);
      expect(r.status).toBe("succeeded");
    }
    const checkers = await Promise.all(
      Array.from({ length: sandboxes * 2 }, () => submit({ engine: "ejs", html_template: "<p>LEAK[<%= ({}).leak %>] JOIN[<%= [1,2].join('-') %>]</p>", data: {} })),
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
