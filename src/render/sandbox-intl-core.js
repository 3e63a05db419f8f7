// The core of Intl in the EJS sandbox (QuickJS), compiled in strict mode the first time a template calls
// a locale method or touches Intl (sandbox-host.ts installs stubs that load it): returns the locale
// methods of Number, BigInt, Date and String over the host functions passed in, and the helpers the Intl
// classes (sandbox-intl-classes.js) build on. The host functions stay in these closures;
// templates see only what is defined here. Arguments are reduced to JSON-safe values first, in the
// sandbox, so a template's getters and toString() run here, under the sandbox's limits, never on the host.
(function installIntlCore(host) {
  const { intlNew, intlFormat, intlOnce } = host;
  const stringify = JSON.stringify;
  const parse = JSON.parse;
  const ObjectProto = Object.prototype;
  const getPrototypeOf = Object.getPrototypeOf;
  const defineProperty = Object.defineProperty;
  const slice = Array.prototype.slice;
  const getTime = Date.prototype.getTime;
  const numberValue = Number.prototype.valueOf;
  const errorTypes = { RangeError, TypeError, SyntaxError };
  function hidden(obj, name, value) {
    defineProperty(obj, name, { value, writable: true, configurable: true, enumerable: false });
  }

  // A host error arrives as a plain Error carrying the original's name: give it back its type.
  function hostError(e) {
    const Type = e && typeof e === "object" ? errorTypes[e.name] : undefined;
    return Type && !(e instanceof Type) ? new Type(e.message) : e;
  }
  function call(fn, a, b, c, d, e, f) {
    try {
      return fn(a, b, c, d, e, f);
    } catch (err) {
      throw hostError(err);
    }
  }

  function locales(l) {
    if (l === undefined) return "";
    if (l === null || typeof l !== "object") return stringify(l) ?? "";
    return stringify(slice.call(l).map((x) => (x !== null && typeof x === "object" ? String(x) : x)));
  }

  const OPTION_KEYS = (
    "localeMatcher style currency currencyDisplay currencySign unit unitDisplay notation compactDisplay signDisplay " +
    "useGrouping minimumIntegerDigits minimumFractionDigits maximumFractionDigits minimumSignificantDigits " +
    "maximumSignificantDigits roundingPriority roundingIncrement roundingMode trailingZeroDisplay numberingSystem " +
    "calendar hour12 hourCycle timeZone weekday era year month day dayPeriod hour minute second " +
    "fractionalSecondDigits timeZoneName formatMatcher dateStyle timeStyle type numeric usage sensitivity " +
    "ignorePunctuation collation caseFirst"
  ).split(" ");
  const known = Object.create(null);
  for (const k of OPTION_KEYS) known[k] = true;

  function optionValue(v) {
    if (typeof v === "number") return Number.isFinite(v) ? v : String(v);
    return v !== null && (typeof v === "object" || typeof v === "function") ? String(v) : v;
  }
  // Options are read as Intl reads them (own and inherited properties), keeping only the names Intl knows.
  function options(o) {
    if (o === undefined) return "";
    if (o === null || (typeof o !== "object" && typeof o !== "function")) return stringify(optionValue(o)) ?? "";
    const out = {};
    if (getPrototypeOf(o) === ObjectProto) {
      for (const k in o) if (known[k] === true && o[k] !== undefined) out[k] = optionValue(o[k]);
    } else {
      for (const k of OPTION_KEYS) if (o[k] !== undefined) out[k] = optionValue(o[k]);
    }
    return stringify(out);
  }

  // An Intl number: numbers as they are; BigInts and strings as exact decimal text.
  function intlNumber(x) {
    if (x !== null && typeof x === "object") x = x.valueOf();
    if (typeof x === "bigint") return String(x);
    return typeof x === "string" ? x : Number(x);
  }

  // The locale methods are defined by ECMA-402 as a formatter made for the call. The host keeps it; the
  // id it gave this report for those locales and options is kept here too, so that a repeated call
  // passes the host two numbers instead of three strings.
  const onceIds = new Map();
  function formatOnce(kind, l, o, x) {
    const key = `${kind}\u0000${locales(l)}\u0000${options(o)}`;
    let id = onceIds.get(key);
    if (id === undefined) {
      const parts = key.split("\u0000");
      id = call(intlNew, kind, parts[1], parts[2]);
      onceIds.set(key, id);
    }
    return call(intlFormat, id, x);
  }
  const bigintValue = BigInt.prototype.valueOf;
  const dateMethod = (method) =>
    function (l, o) {
      const t = getTime.call(this);
      if (Number.isNaN(t)) return "Invalid Date";
      return formatOnce(method, l, o, t);
    };
  // Keyed "Prototype.method": sandbox-host.ts's stubs put each in place of its stub.
  const methods = {
    "Number.toLocaleString": function (l, o) {
      return formatOnce("NumberFormat", l, o, numberValue.call(this));
    },
    "BigInt.toLocaleString": function (l, o) {
      return call(intlOnce, "NumberFormat", locales(l), options(o), "format", String(bigintValue.call(this)));
    },
    "Date.toLocaleString": dateMethod("toLocaleString"),
    "Date.toLocaleDateString": dateMethod("toLocaleDateString"),
    "Date.toLocaleTimeString": dateMethod("toLocaleTimeString"),
    "String.localeCompare": function (that, l, o) {
      if (this === undefined || this === null) throw new TypeError("String.prototype.localeCompare called on null or undefined");
      return call(intlOnce, "Collator", locales(l), options(o), "compare", String(this), String(that));
    },
  };
  return { methods, call, locales, options, intlNumber, hidden, parse, stringify, defineProperty };
});
