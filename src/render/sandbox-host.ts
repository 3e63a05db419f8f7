// The host functions a report's QuickJS runtime may call, and the script (sandbox-globals.js) that
// wraps them into Intl, the locale methods and the barcode helpers. Each call takes and returns only
// strings and numbers, checks the report's deadline first (a template looping over host calls still
// stops on time: once past it, every call fails at once and QuickJS's own interrupt ends the loop), and
// throws errors whose name the sandbox turns back into RangeError or TypeError.
import type { QuickJSContext, QuickJSHandle } from "quickjs-emscripten-core";
import { BarcodeError, barcodeSvg } from "./barcodes";
import { epcPayload, swissQrBillPayload } from "./payment-codes";
// @ts-expect-error: a .js file imported as text has no type declarations
import barcodesSource from "./sandbox-barcodes.js" with { type: "text" };
import { IntlRealm, intlStatic } from "./sandbox-intl";
// @ts-expect-error: a .js file imported as text has no type declarations
import classesSource from "./sandbox-intl-classes.js" with { type: "text" };
// @ts-expect-error: a .js file imported as text has no type declarations
import coreSource from "./sandbox-intl-core.js" with { type: "text" };

/**
 * Each installer as one function expression, to compile as `return <it>`: without its comments and
 * whitespace (Bun's minifier), which QuickJS would otherwise scan on every first use (~25% of it).
 */
const INSTALLERS: Record<string, string> = Object.fromEntries(
  Object.entries({ core: coreSource, classes: classesSource, barcodes: barcodesSource }).map(([name, source]) => [
    name,
    minified(source as string),
  ]),
);

function minified(source: string): string {
  const fn = source.slice(source.indexOf("(function install")).trim().replace(/;$/, "");
  const prefix = "globalThis.__installer=";
  const out = new Bun.Transpiler({ loader: "js", minifyWhitespace: true }).transformSync(`${prefix}${fn};`).trim();
  if (!out.startsWith(prefix) || !out.endsWith(";"))
    throw new Error(`the sandbox installer ${fn.slice(0, 40)} did not minify to one assignment`);
  return `(${out.slice(prefix.length, -1)})`;
}

/**
 * Compiling the installers costs milliseconds on every report's runtime, and most templates format
 * nothing and draw no barcode. So each runtime gets only stubs (~0.1 ms): Intl is a getter, and the
 * locale methods and helpers are functions, that compile their installer on first use (the locale
 * methods need only the core; Intl adds the classes), put the real thing in place of every stub still
 * there (a template's own replacement stays), then do what was asked. Function is taken before any
 * template code runs.
 */
const STUBS = `(function (host) {
  "use strict";
  var compile = Function, define = Object.defineProperty, getOwn = Object.getOwnPropertyDescriptor, core, intl, helpers;
  var protos = { Number: Number.prototype, BigInt: BigInt.prototype, Date: Date.prototype, String: String.prototype };
  var stubs = {};
  function load(name) { return compile("host", "core", "'use strict'; return " + host.source(name) + "(host, core);")(host, core); }
  function hidden(o, name, value) { define(o, name, { value: value, writable: true, configurable: true, enumerable: false }); }
  function replace(o, name, key, real) { var d = getOwn(o, name); if (d && d.value === stubs[key]) hidden(o, name, real); }
  function loadCore() {
    if (core !== undefined) return core;
    core = load("core");
    for (var key in core.methods) { var p = key.split("."); replace(protos[p[0]], p[1], key, core.methods[key]); }
    return core;
  }
  function loadIntl() {
    if (intl !== undefined) return intl;
    loadCore();
    intl = load("classes");
    var d = getOwn(globalThis, "Intl");
    if (d && d.get === intlGetter) hidden(globalThis, "Intl", intl);
    return intl;
  }
  function loadHelpers() {
    if (helpers !== undefined) return helpers;
    helpers = load("barcodes");
    for (var name in helpers) replace(globalThis, name, name, helpers[name]);
    return helpers;
  }
  function intlGetter() { return loadIntl(); }
  define(globalThis, "Intl", { configurable: true, enumerable: false, get: intlGetter,
    set: function (v) { hidden(globalThis, "Intl", v); } });
  ["Number.toLocaleString", "BigInt.toLocaleString", "Date.toLocaleString", "Date.toLocaleDateString",
   "Date.toLocaleTimeString", "String.localeCompare"].forEach(function (key) {
    var p = key.split(".");
    stubs[key] = function () { return loadCore().methods[key].apply(this, arguments); };
    hidden(protos[p[0]], p[1], stubs[key]);
  });
  ["barcode", "epcQr", "epcQrPayload", "swissQrBill", "swissQrBillPayload"].forEach(function (name) {
    stubs[name] = function () { return loadHelpers()[name].apply(undefined, arguments); };
    hidden(globalThis, name, stubs[name]);
  });
})`;

/** Characters of JSON a barcode call may pass (its fields or options). */
const BARCODE_JSON_MAX = 20_000;

/** What the host keeps for one report's runtime. */
export class HostState {
  deadline = Number.POSITIVE_INFINITY;
  readonly intl = new IntlRealm();
  private svgs = 0;
  /** Ids inside one page must differ between the SVGs drawn for it. */
  nextSvgId(): string {
    return `rg-bc${++this.svgs}-`;
  }
}

type Prim = string | number | boolean | undefined;

function prim(ctx: QuickJSContext, h: QuickJSHandle): Prim {
  switch (ctx.typeof(h)) {
    case "string":
      return ctx.getString(h);
    case "number":
      return ctx.getNumber(h);
    case "undefined":
      return undefined;
    default:
      return ctx.dump(h) as Prim;
  }
}

function parseOptions(json: Prim, what: string): unknown {
  const s = String(json ?? "");
  if (s.length > BARCODE_JSON_MAX) throw new BarcodeError(`${what}: the fields are longer than ${BARCODE_JSON_MAX} characters`);
  return s === "" ? undefined : JSON.parse(s);
}

function payment(state: HostState, kind: string, fieldsJson: Prim, optionsJson: Prim): string {
  const helper = kind.startsWith("epc") ? "epcQr" : "swissQrBill";
  const fields = parseOptions(fieldsJson, helper);
  if (fields === undefined || fields === null || typeof fields !== "object")
    throw new BarcodeError(`${helper}: expects an object of fields`);
  const payload = kind.startsWith("epc") ? epcPayload(fields as never) : swissQrBillPayload(fields as never);
  if (kind.endsWith("-payload")) return payload;
  const options = (parseOptions(optionsJson, helper) ?? {}) as Record<string, unknown>;
  // EPC069-12 asks for error correction M; the Swiss QR-bill's code is 46 mm square with level M.
  const defaults = kind === "epc" ? { ecLevel: "M" } : { ecLevel: "M", width: "46mm" };
  return barcodeSvg(kind === "epc" ? "qrcode" : "swissqrcode", payload, { ...defaults, ...options }, state.nextSvgId());
}

/** Defines Intl, the locale methods and the barcode helpers in `ctx`, backed by the host through `state`. */
export function installHost(ctx: QuickJSContext, state: HostState): void {
  // Each argument is read as the kind the sandbox's script always passes there ("s" string, "n" number,
  // "*" either): asking QuickJS for a value's type costs as much as the rest of a format() call.
  const fn = (name: string, kinds: string, impl: (...args: Prim[]) => string | number) =>
    ctx.newFunction(name, (...handles) => {
      if (Date.now() > state.deadline) throw new Error("interrupted: the template ran past its deadline");
      const args: Prim[] = [];
      for (let i = 0; i < kinds.length; i++) {
        const h = handles[i];
        const k = kinds[i];
        args.push(h === undefined ? undefined : k === "s" ? ctx.getString(h) : k === "n" ? ctx.getNumber(h) : prim(ctx, h));
      }
      const r = impl(...args);
      return typeof r === "number" ? ctx.newNumber(r) : ctx.newString(r);
    });
  const intl = state.intl;
  const host = ctx.newObject();
  const fns = {
    intlNew: fn("intlNew", "sss", (kind, l, o) => intl.create(kind as string, l as string, o as string)),
    intlFormat: fn("intlFormat", "nn", (id, x) => intl.primary(id as number, x as number)),
    intlCall: fn("intlCall", "ns**", (id, method, a, b) => intl.call(id as number, method as string, a, b)),
    intlOnce: fn("intlOnce", "ssss**", (kind, l, o, method, a, b) =>
      intl.call(intl.create(kind as string, l as string, o as string), method as string, a, b),
    ),
    intlStatic: fn("intlStatic", "sss", (kind, l, o) => intlStatic(kind as string, l as string, o as string)),
    barcode: fn("barcode", "sss", (type, text, o) =>
      barcodeSvg(type as string, text as string, parseOptions(o, "barcode"), state.nextSvgId()),
    ),
    payment: fn("payment", "sss", (kind, fields, o) => payment(state, kind as string, fields, o)),
    source: fn("source", "s", (name) => INSTALLERS[name as string] ?? ""),
  };
  for (const [name, h] of Object.entries(fns)) {
    ctx.setProp(host, name, h);
    h.dispose();
  }
  const install = ctx.unwrapResult(ctx.evalCode(STUBS, "reportgen-stubs.js"));
  const done = ctx.callFunction(install, ctx.undefined, host);
  install.dispose();
  host.dispose();
  ctx.unwrapResult(done).dispose();
}
