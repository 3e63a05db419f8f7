// The Intl classes of the EJS sandbox, compiled in strict mode the first time a template touches Intl,
// over the host functions and the core's helpers (sandbox-intl-core.js). Each instance holds only the id
// of a formatter the host made for this report.
(function installIntlClasses(host, core) {
  const { intlNew, intlFormat, intlCall, intlStatic } = host;
  const { call, locales, options, intlNumber, hidden, parse, stringify, defineProperty } = core;
  const dateValue = (d) => (d === undefined ? Date.now() : Number(d));
  const list = (l) => stringify(Array.from(l));

  const ids = new WeakMap();
  const bound = new WeakMap();
  function idOf(self, kind, method) {
    const id = ids.get(self);
    if (id === undefined) throw new TypeError(`Intl.${kind}.prototype.${method} called on an object that is not an Intl.${kind}`);
    return id;
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
  return intl;
});
