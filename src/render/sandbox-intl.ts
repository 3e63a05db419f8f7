// The host's side of `Intl` in the EJS sandbox. QuickJS has no Intl, so the sandbox's Intl classes
// (sandbox-intl-shim.ts) call these functions, which use Bun's own Intl (ICU): a template formats
// exactly as Bun does. Only JSON-safe values cross: locales and options as JSON text, numbers, dates
// as epoch milliseconds, strings. Nothing of the host comes back but strings and numbers.
//
// Formatters are costly to build (a currency NumberFormat ~100 µs, format() ~1 µs), so they are kept
// per sandbox process, keyed by kind, locales and options; a template gets small integer ids for the
// formatters it made, which index only its own table (IntlRealm), so it can name no other report's.

/** Kinds a template can construct, with the methods it may call on each. */
const METHODS = {
  NumberFormat: ["format", "formatToParts", "formatRange", "formatRangeToParts", "resolvedOptions"],
  DateTimeFormat: ["format", "formatToParts", "formatRange", "formatRangeToParts", "resolvedOptions"],
  PluralRules: ["select", "selectRange", "resolvedOptions"],
  RelativeTimeFormat: ["format", "formatToParts", "resolvedOptions"],
  ListFormat: ["format", "formatToParts", "resolvedOptions"],
  Collator: ["compare", "resolvedOptions"],
} as const;
type Kind = keyof typeof METHODS;
type Formatter = Record<string, (...args: unknown[]) => unknown>;

/**
 * Date.prototype.toLocaleString, toLocaleDateString and toLocaleTimeString are DateTimeFormats whose
 * options get defaults first (ECMA-402 ToDateTimeOptions): [required, defaults] of each.
 */
const DATE_METHODS = {
  toLocaleString: ["any", "all"],
  toLocaleDateString: ["date", "date"],
  toLocaleTimeString: ["time", "time"],
} as const;
type DateMethod = keyof typeof DATE_METHODS;

/** Limits on what one call may hand the host: a template cannot make it parse or hold much. */
export const INTL_LIMITS = {
  localesChars: 2_000,
  optionsChars: 4_000,
  /** A string to compare or a list to join, in characters. */
  textChars: 1_000_000,
  /** Distinct formatters one report may make. */
  formattersPerReport: 1_000,
} as const;
/** Formatters kept per sandbox process (the oldest dropped first). */
const CACHE_SIZE = 256;

const cache = new Map<string, Formatter>();

function parseJson(json: string, what: string, max: number): unknown {
  if (json.length > max) throw new RangeError(`the ${what} are too long for the template sandbox's Intl (limit ${max} characters)`);
  return json === "" ? undefined : JSON.parse(json);
}

/** ECMA-402 ToDateTimeOptions, as Date.prototype.toLocale*String apply it before making a DateTimeFormat. */
function toDateTimeOptions(options: unknown, required: string, defaults: string): unknown {
  if (options === undefined) options = {};
  if (options === null || typeof options !== "object") return options;
  const o = { ...(options as Record<string, unknown>) };
  let needDefaults = true;
  if (required === "date" || required === "any")
    for (const p of ["weekday", "year", "month", "day"]) if (o[p] !== undefined) needDefaults = false;
  if (required === "time" || required === "any")
    for (const p of ["dayPeriod", "hour", "minute", "second", "fractionalSecondDigits"]) if (o[p] !== undefined) needDefaults = false;
  if (o.dateStyle !== undefined || o.timeStyle !== undefined) needDefaults = false;
  if (needDefaults && (defaults === "date" || defaults === "all")) Object.assign(o, { year: "numeric", month: "numeric", day: "numeric" });
  if (needDefaults && (defaults === "time" || defaults === "all"))
    Object.assign(o, { hour: "numeric", minute: "numeric", second: "numeric" });
  return o;
}

function build(kind: string, locales: unknown, options: unknown): Formatter {
  if (kind in DATE_METHODS) {
    const method = kind as DateMethod;
    const [required, defaults] = DATE_METHODS[method];
    // The real method first, for its own errors (a timeStyle given to toLocaleDateString is a TypeError).
    (new Date(0)[method] as (l: unknown, o: unknown) => string)(locales, options);
    return new Intl.DateTimeFormat(locales as string, toDateTimeOptions(options, required, defaults) as object) as never;
  }
  if (!Object.hasOwn(METHODS, kind)) throw new TypeError(`Intl.${kind} is not available in templates`);
  const Ctor = Intl[kind as Kind] as unknown as new (l: unknown, o: unknown) => Formatter;
  return new Ctor(locales, options);
}

function formatter(key: string, kind: string, localesJson: string, optionsJson: string): Formatter {
  let f = cache.get(key);
  if (f) return f;
  const locales = parseJson(localesJson, "locales", INTL_LIMITS.localesChars);
  const options = parseJson(optionsJson, "options", INTL_LIMITS.optionsChars);
  f = build(kind, locales, options);
  cache.set(key, f);
  if (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value as string);
  return f;
}

/** One report's view of the Intl host: the formatters it made, by id. */
export class IntlRealm {
  private readonly ids = new Map<string, number>();
  private readonly entries: { key: string; kind: string; locales: string; options: string }[] = [];

  /** The id of a formatter of `kind` for these locales and options (made now, or shared if made before). */
  create(kind: string, localesJson: string, optionsJson: string): number {
    const key = `${kind}\u0000${localesJson}\u0000${optionsJson}`;
    const known = this.ids.get(key);
    if (known !== undefined) {
      formatter(key, kind, localesJson, optionsJson);
      return known;
    }
    if (this.entries.length >= INTL_LIMITS.formattersPerReport)
      throw new RangeError(`a template may make at most ${INTL_LIMITS.formattersPerReport} different Intl formatters`);
    formatter(key, kind, localesJson, optionsJson);
    const id = this.entries.length;
    this.entries.push({ key, kind, locales: localesJson, options: optionsJson });
    this.ids.set(key, id);
    return id;
  }

  /** format(x) of a NumberFormat or DateTimeFormat (x in epoch ms), select(x) of PluralRules: the hot path. */
  primary(id: number, x: number): string {
    const e = this.entries[id];
    if (!e) throw new TypeError("not an Intl object of this template");
    const f = formatter(e.key, e.kind, e.locales, e.options);
    return (e.kind === "PluralRules" ? f.select!(x) : f.format!(x)) as string;
  }

  /** Calls `method` on formatter `id`; objects come back as JSON text, strings and numbers as they are. */
  call(id: number, method: string, a: unknown, b: unknown): string | number {
    const e = this.entries[id];
    if (!e) throw new TypeError("not an Intl object of this template");
    const allowed = (METHODS as Record<string, readonly string[]>)[e.kind] ?? ["format", "resolvedOptions"];
    if (!allowed.includes(method)) throw new TypeError(`Intl method ${method} is not available in templates`);
    const f = formatter(e.key, e.kind, e.locales, e.options);
    switch (method) {
      case "format":
        // ListFormat takes a list (sent as JSON text); RelativeTimeFormat a value and a unit.
        if (e.kind === "ListFormat") return f.format!(parseList(a)) as string;
        return f.format!(typeof a === "string" ? checkText(a) : a, b) as string;
      case "formatToParts":
        return JSON.stringify(e.kind === "ListFormat" ? f.formatToParts!(parseList(a)) : f.formatToParts!(a, b));
      case "compare":
        return f.compare!(checkText(a), checkText(b)) as number;
      case "select":
      case "selectRange":
        return f[method]!(a, b) as string;
      case "formatRange":
        return f.formatRange!(a, b) as string;
      default:
        return JSON.stringify(f[method]!(a, b));
    }
  }
}

function checkText(v: unknown): string {
  const s = String(v);
  if (s.length > INTL_LIMITS.textChars)
    throw new RangeError(`a string of ${s.length} characters is too long for the template sandbox's Intl (limit ${INTL_LIMITS.textChars})`);
  return s;
}

function parseList(json: unknown): unknown {
  return parseJson(String(json), "list items", INTL_LIMITS.textChars);
}

/** Intl.getCanonicalLocales and the constructors' supportedLocalesOf, for JSON-text arguments. */
export function intlStatic(kind: string, localesJson: string, optionsJson: string): string {
  const locales = parseJson(localesJson, "locales", INTL_LIMITS.localesChars);
  if (kind === "getCanonicalLocales") return JSON.stringify(Intl.getCanonicalLocales(locales as string[]));
  if (!Object.hasOwn(METHODS, kind)) throw new TypeError(`Intl.${kind} is not available in templates`);
  const options = parseJson(optionsJson, "options", INTL_LIMITS.optionsChars);
  const Ctor = Intl[kind as Kind] as unknown as { supportedLocalesOf(l: unknown, o: unknown): string[] };
  return JSON.stringify(Ctor.supportedLocalesOf(locales, options));
}
