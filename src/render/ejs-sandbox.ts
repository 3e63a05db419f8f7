// Renders EJS inside QuickJS (WebAssembly): the template's code sees only the EJS library and its data,
// never the host's process, environment, files, network or Bun APIs. Runs inside a sandbox child process.
import { newQuickJSWASMModuleFromVariant, newVariant, type QuickJSContext, type QuickJSRuntime, type QuickJSWASMModule } from "quickjs-emscripten-core";
import variant from "@jitl/quickjs-singlefile-cjs-release-sync";
// The browser build of the ejs package: the very library, evaluated inside the sandbox.
// @ts-expect-error: a .js file imported as text has no type declarations
import ejsSource from "../../node_modules/ejs/ejs.min.js" with { type: "text" };

export type EjsResult = { ok: true; html: string } | { ok: false; code: string; message: string };

const WASM_PAGE = 64 * 1024;

interface Realm {
  rt: QuickJSRuntime;
  ctx: QuickJSContext;
}

export class EjsSandbox {
  /** A runtime with EJS already loaded, made while idle; each one serves exactly one report. */
  private spare?: Realm;

  private constructor(
    private readonly mod: QuickJSWASMModule,
    private readonly memoryBytes: number,
  ) {}

  /**
   * memoryBytes caps the WebAssembly memory itself: unlike QuickJS's own memory limit,
   * no allocation inside the module can get past it.
   */
  static async create(memoryBytes: number): Promise<EjsSandbox> {
    const maximum = Math.max(256, Math.floor(memoryBytes / WASM_PAGE));
    const wasmMemory = new WebAssembly.Memory({ initial: Math.min(256, maximum), maximum });
    return new EjsSandbox(await newQuickJSWASMModuleFromVariant(newVariant(variant, { wasmMemory })), memoryBytes);
  }

  /** Builds the next realm ahead of time, so loading EJS (a few ms) is off the report's path. */
  prepare(): void {
    this.spare ??= this.newRealm();
  }

  private newRealm(): Realm {
    const rt = this.mod.newRuntime();
    // Leave headroom below the WebAssembly cap so QuickJS reports "out of memory" itself.
    rt.setMemoryLimit(Math.floor(this.memoryBytes * 0.8));
    // Below what the WebAssembly host stack can take: with 1 MB, deep recursion overflowed the host
    // first and left the runtime corrupt; at 512 KB QuickJS raises a clean "stack overflow".
    rt.setMaxStackSize(512 * 1024);
    const ctx = rt.newContext();
    ctx.unwrapResult(ctx.evalCode(ejsSource, "ejs.js")).dispose();
    return { rt, ctx };
  }

  /** Renders with a fresh runtime and context each time: nothing a template does survives into the next. */
  render(template: string, dataJson: string, timeoutMs: number, outputMax: number): EjsResult {
    const { rt, ctx } = this.spare ?? this.newRealm();
    this.spare = undefined;
    const deadline = Date.now() + timeoutMs;
    let timedOut = false;
    rt.setInterruptHandler(() => (timedOut = Date.now() > deadline));
    try {
      for (const [name, value] of [["__template", template], ["__data", dataJson]] as const) {
        const h = ctx.newString(value);
        ctx.setProp(ctx.global, name, h);
        h.dispose();
      }
      // Options are passed explicitly so keys of the client's data (debug, client, delimiter...)
      // are never taken as EJS options, as ejs.render(template, data) alone would do.
      const result = ctx.evalCode(
        "(function(){ var t = __template, d = JSON.parse(__data); delete globalThis.__template; delete globalThis.__data;" +
          " var out = ejs.render(t, d, {}); if (typeof out !== 'string') throw new TypeError('the template did not produce text'); return out; })()",
        "render.js",
      );
      if (result.error) {
        const err = ctx.dump(result.error) as { name?: string; message?: string } | string;
        result.error.dispose();
        if (timedOut) return { ok: false, code: "template_timeout", message: `the EJS template ran longer than its ${timeoutMs} ms deadline` };
        return describeError(err);
      }
      const length = ctx.getNumber(ctx.getProp(result.value, "length"));
      if (length > outputMax) {
        result.value.dispose();
        return { ok: false, code: "template_output_too_large", message: `the EJS template produced ${length} characters; the limit is ${outputMax}` };
      }
      const html = ctx.getString(result.value);
      result.value.dispose();
      return { ok: true, html };
    } finally {
      ctx.dispose();
      rt.dispose();
    }
  }
}

function describeError(err: { name?: string; message?: string } | string): EjsResult {
  const name = typeof err === "string" ? "Error" : (err.name ?? "Error");
  const message = (typeof err === "string" ? err : (err.message ?? "unknown error")).slice(0, 2000);
  if (/out of memory/i.test(message)) return { ok: false, code: "template_memory_exceeded", message: "the EJS template used more memory than allowed" };
  if (/stack overflow/i.test(message)) return { ok: false, code: "template_error", message: "the EJS template recursed too deeply (stack overflow)" };
  if (/interrupted/i.test(message)) return { ok: false, code: "template_timeout", message: "the EJS template ran past its deadline" };
  return { ok: false, code: "template_error", message: `${name}: ${message}` };
}
