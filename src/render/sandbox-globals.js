// Evaluated inside the EJS sandbox (QuickJS), in strict mode, the first time a template touches Intl, a
// locale method or a barcode helper (sandbox-host.ts installs stubs that load it): defines Intl, the
// locale methods of Number, BigInt, Date and String, and the barcode helpers over the host functions
// passed in, and returns them. The host functions stay in this closure; templates see only what is
// defined here. Arguments are reduced to JSON-safe values first, in the sandbox, so a template's getters
// and toString() run here, under the sandbox's limits, and never on the host.
(function install(host) {
  const { intlNew, intlFormat, intlCall, intlOnce, intlStatic, barcode, payment } = host;
  const stringify = JSON.stringify;
  const parse = JSON.parse;
  const ObjectProto = Object.prototype;
  const getPrototypeOf = Object.getPrototypeOf;
  const defineProperty = Object.defineProperty;
  const slice = Array.prototype.slice;
  const getTime = Date.prototype.getTime;
  const numberValue = Number.prototype.valueOf;
  const errorTypes = { RangeError, TypeError, SyntaxError };

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
  const dateValue = (d) => (d === undefined ? Date.now() : Number(d));
  const list = (l) => stringify(Array.from(l));

  const ids = new WeakMap();
  const bound = new WeakMap();
  function idOf(self, kind, method) {
    const id = ids.get(self);
    if (id === undefined) throw new TypeError(`Intl.${kind}.prototype.${method} called on an object that is not an Intl.${kind}`);
    return id;
  }
  function hidden(obj, name, value) {
    defineProperty(obj, name, { value, writable: true, configurable: true, enumerable: false });
  }

  // methods: name -> argument converter returning [a, b]; getters: names whose value is a bound function.
  function intlClass(kind, callable, methods, getters) {
    const C = function (l, o) {
      if (new.target === undefined && !callable) throw new TypeError(`calling ${kind} constructor without new is invalid`);
      const self = new.target === undefined ? Object.create(C.prototype) : this;
      ids.set(self, call(intlNew, kind, locales(l), options(o)));
      return self;
    };
    defineProperty(C, "name", { value: kind });
    for (const name of Object.keys(methods)) {
      const convert = methods[name];
      const parsed = /ToParts$|resolvedOptions/.test(name);
      // format(number) of NumberFormat and DateTimeFormat and select() of PluralRules take the host's fast path.
      const primary = (name === "format" && kind !== "RelativeTimeFormat" && kind !== "ListFormat") || name === "select";
      const fn = {
        [name](a, b) {
          const args = convert(a, b);
          const id = idOf(this, kind, name);
          if (primary && typeof args[0] === "number") return call(intlFormat, id, args[0]);
          const r = call(intlCall, id, name, args[0], args[1]);
          return parsed ? parse(r) : r;
        },
      }[name];
      if (getters.includes(name)) {
        defineProperty(C.prototype, name, {
          configurable: true,
          get() {
            let f = bound.get(this);
            if (f === undefined) {
              idOf(this, kind, name);
              f = fn.bind(this);
              bound.set(this, f);
            }
            return f;
          },
        });
      } else hidden(C.prototype, name, fn);
    }
    hidden(C, "supportedLocalesOf", (l, o) => parse(call(intlStatic, kind, locales(l), options(o))));
    defineProperty(C.prototype, Symbol.toStringTag, { value: `Intl.${kind}`, configurable: true });
    return C;
  }

  const none = () => [];
  const one = (x) => [intlNumber(x)];
  const two = (x, y) => [intlNumber(x), intlNumber(y)];
  const date = (d) => [dateValue(d)];
  const dates = (a, b) => [Number(a), Number(b)];
  const intl = {};
  hidden(
    intl,
    "NumberFormat",
    intlClass("NumberFormat", true, { format: one, formatToParts: one, formatRange: two, formatRangeToParts: two, resolvedOptions: none }, [
      "format",
    ]),
  );
  hidden(
    intl,
    "DateTimeFormat",
    intlClass(
      "DateTimeFormat",
      true,
      { format: date, formatToParts: date, formatRange: dates, formatRangeToParts: dates, resolvedOptions: none },
      ["format"],
    ),
  );
  hidden(
    intl,
    "PluralRules",
    intlClass(
      "PluralRules",
      false,
      { select: (n) => [Number(n)], selectRange: (a, b) => [Number(a), Number(b)], resolvedOptions: none },
      [],
    ),
  );
  hidden(
    intl,
    "RelativeTimeFormat",
    intlClass(
      "RelativeTimeFormat",
      false,
      { format: (v, u) => [Number(v), String(u)], formatToParts: (v, u) => [Number(v), String(u)], resolvedOptions: none },
      [],
    ),
  );
  hidden(
    intl,
    "ListFormat",
    intlClass("ListFormat", false, { format: (l) => [list(l)], formatToParts: (l) => [list(l)], resolvedOptions: none }, []),
  );
  hidden(intl, "Collator", intlClass("Collator", true, { compare: (a, b) => [String(a), String(b)], resolvedOptions: none }, ["compare"]));
  hidden(intl, "getCanonicalLocales", (l) => parse(call(intlStatic, "getCanonicalLocales", locales(l), "")));
  defineProperty(intl, Symbol.toStringTag, { value: "Intl", configurable: true });
  hidden(globalThis, "Intl", intl);

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
  hidden(Number.prototype, "toLocaleString", function numberToLocaleString(l, o) {
    return formatOnce("NumberFormat", l, o, numberValue.call(this));
  });
  const bigintValue = BigInt.prototype.valueOf;
  hidden(BigInt.prototype, "toLocaleString", function bigintToLocaleString(l, o) {
    return call(intlOnce, "NumberFormat", locales(l), options(o), "format", String(bigintValue.call(this)));
  });
  for (const method of ["toLocaleString", "toLocaleDateString", "toLocaleTimeString"]) {
    const fn = {
      [method](l, o) {
        const t = getTime.call(this);
        if (Number.isNaN(t)) return "Invalid Date";
        return formatOnce(method, l, o, t);
      },
    }[method];
    hidden(Date.prototype, method, fn);
  }
  const dateMethods = {};
  for (const method of ["toLocaleString", "toLocaleDateString", "toLocaleTimeString"]) dateMethods[method] = Date.prototype[method];
  hidden(String.prototype, "localeCompare", function localeCompare(that, l, o) {
    if (this === undefined || this === null) throw new TypeError("String.prototype.localeCompare called on null or undefined");
    return call(intlOnce, "Collator", locales(l), options(o), "compare", String(this), String(that));
  });

  // Barcodes: SVG markup for <%- %>. Options go as JSON; the host checks every one.
  const json = (o) => (o === undefined ? "" : stringify(o));
  hidden(globalThis, "barcode", function barcodeSvg(type, text, o) {
    return call(barcode, String(type), String(text), json(o));
  });
  hidden(globalThis, "epcQr", (fields, o) => call(payment, "epc", json(fields), json(o)));
  hidden(globalThis, "epcQrPayload", (fields) => call(payment, "epc-payload", json(fields), ""));
  hidden(globalThis, "swissQrBill", (fields, o) => call(payment, "swiss", json(fields), json(o)));
  hidden(globalThis, "swissQrBillPayload", (fields) => call(payment, "swiss-payload", json(fields), ""));

  const g = globalThis;
  return {
    Intl: intl,
    "Number.toLocaleString": Number.prototype.toLocaleString,
    "BigInt.toLocaleString": BigInt.prototype.toLocaleString,
    "Date.toLocaleString": dateMethods.toLocaleString,
    "Date.toLocaleDateString": dateMethods.toLocaleDateString,
    "Date.toLocaleTimeString": dateMethods.toLocaleTimeString,
    "String.localeCompare": String.prototype.localeCompare,
    barcode: g.barcode,
    epcQr: g.epcQr,
    epcQrPayload: g.epcQrPayload,
    swissQrBill: g.swissQrBill,
    swissQrBillPayload: g.swissQrBillPayload,
  };
});
