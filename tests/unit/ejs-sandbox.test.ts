// The EJS sandbox in-process: a compiled template is kept per template text and run in a fresh bare
// runtime with EJS's own helpers. Its output must be the `ejs` package's, byte for byte, whether the
// template was just compiled or came from the cache, and nothing a report does may reach the next one.
import { beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import ejs from "ejs";
import { type EjsResult, EjsSandbox } from "../../src/render/ejs-sandbox";
import { sharedMissing, sharedPath, testIf } from "../helpers/shared";

// The EJS library's fixtures, from shared/ beside the clone (skipped, saying why, without it).
const FIXTURES = sharedPath("fixtures/ejs");
const fixturesMissing = sharedMissing("fixtures/ejs/manifest.json");
const manifest = (fixturesMissing ? { fixtures: [] } : JSON.parse(readFileSync(join(FIXTURES, "manifest.json"), "utf8"))) as {
  fixtures: { name: string; template: string; locals: Record<string, unknown> }[];
};

let sandbox: EjsSandbox;
beforeAll(async () => {
  sandbox = await EjsSandbox.create(128 * 1024 * 1024);
});

function render(template: string, data: unknown, box = sandbox): EjsResult {
  box.prepare();
  return box.render(template, JSON.stringify(data), 5000, 10_000_000);
}

/** Renders twice (compiled, then from the cache) and in a second sandbox; all three must agree. */
async function renderEveryWay(template: string, data: unknown): Promise<EjsResult> {
  const first = render(template, data);
  expect(render(template, data)).toEqual(first);
  expect(render(template, data, await EjsSandbox.create(128 * 1024 * 1024))).toEqual(first);
  return first;
}

const cases: [string, string, unknown][] = [
  ["escaping", "<p><%= s %></p><%- s %>", { s: `<a href="x">'&'</a>` }],
  // The sandbox skips EJS's replace() for text with none of the five characters (src/render/ejs-sandbox.ts).
  [
    "escaping each special character alone, plain text, and values that are not strings",
    "<%= a %>|<%= b %>|<%= c %>|<%= d %>|<%= e %>|<%= plain %>|<%= '' %>|<%= n %>|<%= f %>|<%= list %>|<%= ({ toString: function () { return '<x>' } }) %>|<%= { k: 1 } %>",
    { a: "&", b: "<", c: ">", d: '"', e: "'", plain: "Zürich 東京 a-b_c", n: 3.5, f: false, list: ["<", "b"] },
  ],
  ["null and undefined print nothing", "[<%= n %>][<%= locals.missing %>][<%- n %>]", { n: null }],
  [
    "loops over arrays and objects",
    "<% for (const r of rows) { %><%= r.n %>:<%= r.name %>;<% } %><% Object.keys(o).forEach(function (k) { %><%= k %>=<%= o[k] %> <% }) %>",
    {
      rows: [
        { n: 1, name: "a" },
        { n: 2, name: "b" },
      ],
      o: { x: 1, y: [1, 2] },
    },
  ],
  [
    "data keys named like EJS options are only data",
    "<%= delimiter %>|<%= client %>|<%= debug %>|<%= localsName %>",
    { delimiter: "?", client: true, debug: "d", localsName: "L" },
  ],
  [
    "__proto__ and constructor keys are not copied onto locals",
    "<%= Object.keys(locals).join(',') %>|<%= typeof locals.constructor %>",
    JSON.parse('{"a":1,"constructor":2,"__proto__":{"z":1}}'),
  ],
  ["whitespace slurping and comments", "a  <%_ if (true) { _%>  b  <%_ } _%>  c<%# no %>\n<%= 1 -%>\nd", {}],
  ["literal tags", "<%% x %%> <%= 'y' %>", {}],
  ["unicode and line endings", "Zürich — 東京\r\n<%= s %>\r\n", { s: "Ελλάδα 🎉" }],
  ["numbers, booleans, nested data", "<%= a + 1 %> <%= b ? 'y' : 'n' %> <%= c.d.e %>", { a: 41, b: false, c: { d: { e: "deep" } } }],
];

describe("same output as the ejs package", () => {
  testIf(fixturesMissing)("the EJS fixtures are there", () => {
    expect(manifest.fixtures.length).toBeGreaterThanOrEqual(11);
  });
  test.each(manifest.fixtures.map((f) => [f.name, f] as const))("fixture %s", async (_name, f) => {
    const template = readFileSync(join(FIXTURES, f.template), "utf8");
    expect(await renderEveryWay(template, f.locals)).toEqual({ ok: true, html: ejs.render(template, f.locals, {}) });
  });

  test.each(cases)("%s", async (_name, template, data) => {
    expect(await renderEveryWay(template, data)).toEqual({ ok: true, html: ejs.render(template, data as ejs.Data, {}) });
  });
});

describe("errors name their cause and template line first (src/render/template-error.ts)", () => {
  test("a runtime error: the cause and its line, then EJS's context lines", async () => {
    expect(await renderEveryWay("a\nb\n<%= customer.name %>\nc", {})).toEqual({
      ok: false,
      code: "template_error",
      message: "ReferenceError: customer is not defined (template line 3)\n\n    1| a\n    2| b\n >> 3| <%= customer.name %>\n    4| c",
    });
  });

  test("a syntax error: its line, without EJS's advice to the library's caller", async () => {
    const r = await renderEveryWay("a\n\n<%= 1 +* 2 %>\nd", {});
    expect(r).toEqual({ ok: false, code: "template_error", message: "SyntaxError: unexpected token in expression: '*' (template line 3)" });
  });

  test("a block left open is found at the end of the template", async () => {
    const r = await renderEveryWay("<% if (x) { %>", { x: 1 });
    expect(r).toMatchObject({ ok: false, code: "template_error" });
    const message = (r as { message: string }).message;
    expect(message).toStartWith("SyntaxError: ");
    expect(message).toEndWith("(at the end of the template: check that each {, ( and [ is closed, once)");
    expect(message).not.toContain("EJS-Lint");
    expect(message).not.toContain("async");
    expect(message).not.toContain("while compiling");
  });

  test("include() finds no file", async () => {
    expect(await renderEveryWay("<%- include('partial') %>", {})).toEqual({
      ok: false,
      code: "template_error",
      message: "Error: Could not find the include file \"partial\" (template line 1)\n\n >> 1| <%- include('partial') %>",
    });
  });

  test("a template that does not produce text", async () => {
    expect((await renderEveryWay("<% return 5 %>", {})).ok).toBe(false);
  });
});

describe("the cache shares nothing but the compiled template", () => {
  test("one template, different data: each report gets its own", () => {
    const t = "<h1><%= name %></h1>";
    expect(render(t, { name: "A" })).toEqual({ ok: true, html: "<h1>A</h1>" });
    expect(render(t, { name: "B" })).toEqual({ ok: true, html: "<h1>B</h1>" });
  });

  test("what a report changes in its runtime (globals, prototypes, EJS's helpers) is gone for the next, same template or not", () => {
    const tamper =
      "<% Object.prototype.injected = 'X'; String.prototype.replace = function () { return 'TAMPERED' }; globalThis.leak = 'L';" +
      " escapeFn.leak = 1; Array.prototype.join = function () { return 'J' }; %><%= '<' + [1,2].join('-') %>";
    // Within the report the tampering works (the escape of "<J" goes through the replaced replace())...
    expect(render(tamper, {})).toEqual({ ok: true, html: "TAMPERED" });
    expect(render(tamper, {})).toEqual({ ok: true, html: "TAMPERED" });
    // ...and is gone for the next one.
    const probe = "<%= typeof globalThis.leak %>|<%= ({}).injected %>|<%= '<b>' %>|<%= [1,2].join('-') %>|<%= typeof escapeFn.leak %>";
    expect(render(probe, {})).toEqual({ ok: true, html: "undefined||&lt;b&gt;|1-2|undefined" });
  });

  test("code a crafted template runs while it is compiled stays in that throwaway runtime", () => {
    // QuickJS's Function constructor runs code that closes the function body early; that code must not
    // change what is kept for this template, nor reach other templates.
    const crafted = "<% }); globalThis.Function = null; Object.prototype.x = 'P'; (function () { %>ok";
    const first = render(crafted, {});
    expect(render(crafted, {})).toEqual(first);
    expect(render("<%= ({}).x %>|<%= typeof Function %>", {})).toEqual({ ok: true, html: "|function" });
  });

  test("runaway templates still stop at their deadline, compiled or cached", () => {
    for (let i = 0; i < 2; i++) {
      const t0 = performance.now();
      expect(sandbox.render("<% while (true) {} %>", "{}", 300, 1000)).toMatchObject({ ok: false, code: "template_timeout" });
      expect(performance.now() - t0).toBeLessThan(3000);
    }
  });
});
