// Joins what several modules declare into one table: each name may be declared by one module only.

/**
 * The entries of every list, in order. A name two lists declare is a defect (two modules claiming one
 * route, scope or code), refused when the app is built: `what` names the kind in the message.
 */
export function joinDeclared<K extends string, V>(what: string, lists: readonly Readonly<Partial<Record<K, V>>>[]): Record<K, V> {
  const out = {} as Record<K, V>;
  for (const list of lists) {
    for (const [name, value] of Object.entries(list) as [K, V][]) {
      if (Object.hasOwn(out, name)) throw new Error(`the ${what} ${name} is declared twice: declare it in one module only`);
      out[name] = value;
    }
  }
  return out;
}
