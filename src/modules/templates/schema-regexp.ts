// The regular-expression engine of data_schema's `pattern` and `patternProperties`: RE2 (the re2js port),
// which matches in time linear in the input whatever the pattern. JavaScript's own RegExp backtracks: the
// pattern "^(a+)+$" took seconds on one 30-character string, and a schema comes from an API client. RE2
// has no backreferences and no lookaround (they are what needs backtracking); a pattern that uses them is
// refused when the schema is saved, naming its place.
import { RE2JS } from "re2js";

/** What Ajv needs of a compiled pattern: test(), and a key that tells patterns apart in its generated code. */
interface Re2Like {
  test(s: string): boolean;
  toString(): string;
}

/** Compiles an ECMAScript pattern (JSON Schema's dialect) for RE2; throws a SyntaxError saying why it cannot. */
export function compileRe2(pattern: string): Re2Like {
  let re: RE2JS;
  try {
    // translateRegExp maps ECMAScript's spellings to RE2's: (?<name>…) to (?P<name>…), \u{…} to \x{…}, / escaped.
    re = RE2JS.compile(RE2JS.translateRegExp(pattern));
  } catch (e) {
    const why = (e as Error).message.replace(/^error parsing regexp: /, "");
    throw new SyntaxError(`the RE2 engine cannot run this pattern (${why}); backreferences and lookaround are not supported`);
  }
  return { test: (s) => re.test(s), toString: () => pattern };
}

/**
 * Ajv's `code.regExp` option: Ajv calls it with (pattern, flags) when it compiles a schema and calls test()
 * on the result. `code` names it in standalone code, which is not used here.
 */
export const re2RegExp = Object.assign((pattern: string, _flags: string) => compileRe2(pattern), { code: "re2" });
