// Renders EJS inside QuickJS (WebAssembly): the template's code sees only its data and EJS's own
// helpers, never the host's process, environment, files, network or Bun APIs. Runs inside a sandbox
// child process.
//
// Every report runs in a fresh QuickJS runtime, so nothing a template does survives into the next one.
// Loading the EJS library into a fresh runtime costs ~4 ms of CPU (4.3 ms per runtime with EJS against
// 0.5 ms for a bare one, on 2 cores: the sandbox's own /proc CPU in `bun scripts/bench.ts`), and
// compiling the template another ~1 ms, on every report. Both are paid once per distinct template instead:
//   - compile: a fresh runtime with EJS compiles the template, and the function body EJS generates is
//     kept, keyed by the template's text (compiling runs no template code, except what QuickJS's
//     Function constructor lets a crafted template run, and that runs in this throwaway runtime);
//   - run: a fresh, bare runtime gets EJS's own escape and rethrow helpers (their source, taken from the
//     library at start) and the kept body, and calls it as ejs.render(template, data, {}) would.
// The compiled body depends on the template's text alone (the options are fixed), so sharing it between
// reports that send the same template shares nothing else. tests/unit/ejs-sandbox.test.ts holds the
// output to the `ejs` package's own on EJS's fixtures, cached and not; errors are worded by
// template-error.ts.

import variant from "@jitl/quickjs-singlefile-cjs-release-sync";
import {
  newQuickJSWASMModuleFromVariant,
  newVariant,
  type QuickJSContext,
  type QuickJSRuntime,
  type QuickJSWASMModule,
} from "quickjs-emscripten-core";
// The browser build of the ejs package: the very library, evaluated inside the sandbox.
// @ts-expect-error: a .js file imported as text has no type declarations
import ejsSource from "../../node_modules/ejs/ejs.min.js" with { type: "text" };
import { HostState, installHost } from "./sandbox-host";
import { formatTemplateError, type ThrownError } from "./template-error";

export type EjsResult = { ok: true; html: string } | { ok: false; code: string; message: string };

const WASM_PAGE = 64 * 1024;
/** Characters of compiled template bodies kept per sandbox process (least recently used dropped first). */
const COMPILED_BUDGET = 16 * 1024 * 1024;

interface Realm {
  rt: QuickJSRuntime;
  ctx: QuickJSContext;
  /** A report's runtime: its link to the host's Intl and barcodes (sandbox-host.ts). */
  host?: HostState;
}

/** What EJS hands a compiled template: its parameter list and helpers, as source, read from the library. */
interface EjsRuntime {
  params: string;
  escapeFn: string;
  rethrow: string;
}

export class EjsSandbox {
  /** A bare runtime with EJS's helpers, made while idle; each one serves exactly one report. */
  private spare?: Realm;
  /** Template text -> the function body EJS compiled it to. Map order is recency order. */
  private readonly compiled = new Map<string, string>();
  private compiledChars = 0;

  private constructor(
    private readonly mod: QuickJSWASMModule,
    private readonly memoryBytes: number,
    private readonly helpers: EjsRuntime,
  ) {}

  /**
   * memoryBytes caps the WebAssembly memory itself: unlike QuickJS's own memory limit,
   * no allocation inside the module can get past it.
   */
  static async create(memoryBytes: number): Promise<EjsSandbox> {
    const maximum = Math.max(256, Math.floor(memoryBytes / WASM_PAGE));
    const wasmMemory = new WebAssembly.Memory({ initial: Math.min(256, maximum), maximum });
    const mod = await newQuickJSWASMModuleFromVariant(newVariant(variant, { wasmMemory }));
    return new EjsSandbox(mod, memoryBytes, readEjsRuntime(mod));
  }

  /** Builds the next report's runtime ahead of time, off the report's path. */
  prepare(): void {
    this.spare ??= this.newRunner();
  }

  private newRealm(): Realm {
    const rt = this.mod.newRuntime();
    // Leave headroom below the WebAssembly cap so QuickJS reports "out of memory" itself.
    rt.setMemoryLimit(Math.floor(this.memoryBytes * 0.8));
    // Below what the WebAssembly host stack can take: with 1 MB, deep recursion overflowed the host
    // first and left the runtime corrupt; at 512 KB QuickJS raises a clean "stack overflow".
    rt.setMaxStackSize(512 * 1024);
    return { rt, ctx: rt.newContext() };
  }

  /**
   * A bare runtime whose one global, __run(body, dataJson), does what EJS's compiled template does when
   * ejs.render(template, data, {}) calls it: the data's own keys copied onto a null-prototype `locals`
   * (never __proto__ or constructor), `this` left undefined, EJS's escape and rethrow helpers passed in.
   * include() cannot find a file here, as it could not inside the library's browser build either.
   */
  private newRunner(): Realm {
    const realm = this.newRealm();
    const h = this.helpers;
    const prelude =
      "globalThis.__run = (function () {\n" +
      `var escapeXML = ${h.escapeFn}\n;var rethrow = ${h.rethrow};\n` +
      // EJS's escape runs a global replace() on every value; most values have nothing to escape, and for
      // those one test() is enough: the same text, and QuickJS renders the 1000-row bench report in
      // 7.7 ms instead of 9.6 (tests/unit/ejs-sandbox.test.ts holds the output to the ejs package's).
      "var special = /[&<>'\"]/, escapeFn = function (markup) { if (markup == undefined) return ''; var s = String(markup);" +
      " return special.test(s) ? escapeXML(s) : s; };\n" +
      "function include(path) { throw new Error('Could not find the include file \"' + path + '\"'); }\n" +
      "var hasOwn = Object.prototype.hasOwnProperty, create = Object.create, parse = JSON.parse, F = Function;\n" +
      "return function (body, dataJson) {\n" +
      "  var data = parse(dataJson) || {}, locals = create(null);\n" +
      "  for (var p in data) { if (hasOwn.call(data, p) && p !== '__proto__' && p !== 'constructor') locals[p] = data[p]; }\n" +
      `  return F(${JSON.stringify(h.params)}, body).apply(undefined, [locals, escapeFn, include, rethrow]);\n` +
      "};\n})();";
    realm.ctx.unwrapResult(realm.ctx.evalCode(prelude, "reportgen-ejs.js")).dispose();
    realm.host = new HostState();
    installHost(realm.ctx, realm.host);
    return realm;
  }

  /** Renders with a fresh runtime each time: nothing a template does survives into the next. */
  render(template: string, dataJson: string, timeoutMs: number, outputMax: number): EjsResult {
    const deadline = Date.now() + timeoutMs;
    const body = this.compiledBody(template, deadline, timeoutMs);
    if (typeof body !== "string") return body;
    const { rt, ctx, host } = this.spare ?? this.newRunner();
    this.spare = undefined;
    host!.deadline = deadline;
    let timedOut = false;
    rt.setInterruptHandler(() => (timedOut = Date.now() > deadline));
    try {
      setGlobals(ctx, { __body: body, __data: dataJson });
      const result = ctx.evalCode(
        "(function(){ var run = __run, b = __body, d = __data; delete globalThis.__run; delete globalThis.__body; delete globalThis.__data;" +
          " var out = run(b, d); if (typeof out !== 'string') throw new TypeError('the template did not produce text'); return out; })()",
        "render.js",
      );
      if (result.error) return failure(ctx, result.error, timedOut, timeoutMs);
      const length = ctx.getNumber(ctx.getProp(result.value, "length"));
      if (length > outputMax) {
        result.value.dispose();
        return {
          ok: false,
          code: "template_output_too_large",
          message: `the EJS template produced ${length} characters; the limit is ${outputMax}`,
        };
      }
      const html = ctx.getString(result.value);
      result.value.dispose();
      return { ok: true, html };
    } finally {
      ctx.dispose();
      rt.dispose();
    }
  }

  /** The body EJS compiles `template` to, from the cache or compiled now in a throwaway runtime with EJS. */
  private compiledBody(template: string, deadline: number, timeoutMs: number): string | EjsResult {
    const kept = this.compiled.get(template);
    if (kept !== undefined) {
      this.compiled.delete(template);
      this.compiled.set(template, kept);
      return kept;
    }
    const { rt, ctx } = this.newRealm();
    let timedOut = false;
    rt.setInterruptHandler(() => (timedOut = Date.now() > deadline));
    try {
      ctx.unwrapResult(ctx.evalCode(ejsSource, "ejs.js")).dispose();
      setGlobals(ctx, { __template: template });
      // EJS builds the template's function with `new Function(params, body)`: the first call made while
      // it compiles is EJS's own, before any code of the template could run.
      const result = ctx.evalCode(
        "(function(){ var t = __template, RealFunction = Function, body; delete globalThis.__template;" +
          " globalThis.Function = function (params, b) { if (body === undefined) body = b; return RealFunction.apply(this, arguments); };" +
          // A body that does not compile is left behind: it maps a syntax error back to its template line.
          " try { ejs.compile(t, {}); } catch (e) { globalThis.__failedBody = body; throw e; } finally { globalThis.Function = RealFunction; }" +
          " if (typeof body !== 'string') throw new TypeError('EJS compiled no function'); return body; })()",
        "compile.js",
      );
      if (result.error) return failure(ctx, result.error, timedOut, timeoutMs, failedBody(ctx));
      const body = ctx.getString(result.value);
      result.value.dispose();
      this.keep(template, body);
      return body;
    } finally {
      ctx.dispose();
      rt.dispose();
    }
  }

  private keep(template: string, body: string): void {
    if (body.length > COMPILED_BUDGET / 4) return;
    this.compiled.set(template, body);
    this.compiledChars += body.length;
    for (const [t, b] of this.compiled) {
      if (this.compiledChars <= COMPILED_BUDGET) break;
      this.compiled.delete(t);
      this.compiledChars -= b.length;
    }
  }
}

function setGlobals(ctx: QuickJSContext, values: Record<string, string>): void {
  for (const [name, value] of Object.entries(values)) {
    const h = ctx.newString(value);
    ctx.setProp(ctx.global, name, h);
    h.dispose();
  }
}

/**
 * Reads, from the library itself, what a compiled template is called with: the parameter list EJS
 * compiles it with, and the source of its escape and rethrow helpers (both self-contained: the
 * escape function's toString() carries its tables, as EJS's old client mode relied on).
 */
function readEjsRuntime(mod: QuickJSWASMModule): EjsRuntime {
  const rt = mod.newRuntime();
  const ctx = rt.newContext();
  try {
    ctx.unwrapResult(ctx.evalCode(ejsSource, "ejs.js")).dispose();
    const result = ctx.unwrapResult(
      ctx.evalCode(
        "(function(){ var RealFunction = Function, seen = {};" +
          " globalThis.Function = function (params, body) { var fn = RealFunction(params, body); seen.params = params;" +
          "   return function () { seen.escapeFn = arguments[1]; seen.rethrow = arguments[3]; return fn.apply(this, arguments); }; };" +
          " try { ejs.render('<%= 1 %>', {}, {}); } finally { globalThis.Function = RealFunction; }" +
          " return JSON.stringify({ params: seen.params, escapeFn: String(seen.escapeFn), rethrow: String(seen.rethrow) }); })()",
        "read-ejs.js",
      ),
    );
    const helpers = JSON.parse(ctx.getString(result)) as EjsRuntime;
    result.dispose();
    return helpers;
  } finally {
    ctx.dispose();
    rt.dispose();
  }
}

/** The function body EJS generated for a template that then failed to compile, if it got that far. */
function failedBody(ctx: QuickJSContext): string | undefined {
  const h = ctx.getProp(ctx.global, "__failedBody");
  const body = ctx.typeof(h) === "string" ? ctx.getString(h) : undefined;
  h.dispose();
  return body;
}

function failure(ctx: QuickJSContext, error: { dispose(): void }, timedOut: boolean, timeoutMs: number, body?: string): EjsResult {
  const err = ctx.dump(error as never) as ThrownError | string;
  error.dispose();
  if (timedOut) return { ok: false, code: "template_timeout", message: `the EJS template ran longer than its ${timeoutMs} ms deadline` };
  return describeError(err, body);
}

function describeError(err: ThrownError | string, body?: string): EjsResult {
  const message = typeof err === "string" ? err : (err.message ?? "unknown error");
  if (/out of memory/i.test(message))
    return { ok: false, code: "template_memory_exceeded", message: "the EJS template used more memory than allowed" };
  if (/stack overflow/i.test(message))
    return { ok: false, code: "template_error", message: "the EJS template recursed too deeply (stack overflow)" };
  if (/interrupted/i.test(message)) return { ok: false, code: "template_timeout", message: "the EJS template ran past its deadline" };
  return { ok: false, code: "template_error", message: formatTemplateError(err, body).slice(0, 2000) };
}
