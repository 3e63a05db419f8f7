// The one wording of an EJS template's error, read by whoever rendered it: a failed report's error.message,
// the preview's 422 and `reportgen render` all show what the sandbox returns from here. The first line
// names the cause and the template line; EJS's context lines follow. EJS puts its own "ejs:LINE" heading
// first, and after a syntax error advice meant for a developer calling the library (EJS-Lint, `async:
// true`), which neither a client of the API nor a user of the command line can act on.

/** An error as the sandbox dumps it (QuickJS's name, message and stack). */
export interface ThrownError {
  name?: string;
  message?: string;
  stack?: string;
}

/** EJS's rethrow(): "ejs:LINE\n<context lines>\n\n<the original message>" (the context has no blank line). */
const RETHROWN = /^ejs:(\d+)\n([\s\S]*?)\n\n([\s\S]*)$/;
/** A context line longer than this (a minified template) is cut: the line number says where to look. */
const CONTEXT_WIDTH = 200;
/** What EJS appends to a SyntaxError raised while compiling (ejs/lib/ejs.js, Template.compile). */
const COMPILE_ADVICE = /( in \S+)? while compiling ejs(\n[\s\S]*)?$/;
/** Where QuickJS's Function constructor saw the syntax error, in the source it compiled. */
const STACK_POSITION = /^\s*at <input>:(\d+)(?::\d+)?/;
/**
 * QuickJS compiles `new Function(params, body)` as "(function anonymous(params\n) {\nbody\n})": the body
 * starts on its third line. tests/unit/template-error.test.ts holds a syntax error to its template line.
 */
const BODY_OFFSET = 2;
/** How EJS starts each token of the template in the body (text, output or code); a tag's own newlines stay. */
const TOKEN = "    ; ";
/** The line EJS emits after a token with newlines: the next token starts on template line N. */
const LINE_MARK = /^ {4}; __line = (\d+)$/;

/**
 * The message of a template's error: "<Name>: <message> (template line N)" on the first line, then what
 * else the message says, then EJS's context lines. `body` is the function EJS compiled the template to,
 * when the error was raised while compiling it: it maps a syntax error's position back to a template line.
 */
export function formatTemplateError(err: ThrownError | string, body?: string): string {
  const name = typeof err === "string" ? "Error" : err.name || "Error";
  const raw = typeof err === "string" ? err : (err.message ?? "unknown error");
  const rethrown = RETHROWN.exec(raw);
  if (rethrown) {
    const [first = "", ...rest] = rethrown[3]!.split("\n");
    const context = rethrown[2]!.split("\n").map((l) => (l.length > CONTEXT_WIDTH ? `${l.slice(0, CONTEXT_WIDTH)}…` : l));
    return [`${name}: ${readable(first)} (template line ${rethrown[1]})`, ...rest, "", ...context].join("\n");
  }
  if (name === "SyntaxError" && COMPILE_ADVICE.test(raw)) {
    const message = raw.replace(COMPILE_ADVICE, "");
    const where = typeof err === "string" || body === undefined ? undefined : syntaxErrorLine(body, err.stack);
    return `${name}: ${message}${where ? ` (${where})` : ""}`;
  }
  const [first = "", ...rest] = raw.split("\n");
  return [`${name}: ${readable(first)}`, ...rest].join("\n");
}

/**
 * QuickJS says `'x' is not defined` where Node says `x is not defined`: the Node wording is the one a
 * template author sees when trying the template with the ejs package, and searches for.
 */
function readable(message: string): string {
  return message.replace(/^'([^']+)' is not defined$/, "$1 is not defined");
}

/**
 * The template line of a syntax error: the last line mark EJS emitted before the error's position in the
 * compiled body, plus the lines of a tag spread over several lines up to that position. Past the
 * template's code, in the function EJS wraps it in, the parser only noticed at the end that something was
 * left open (or closed once too often).
 */
function syntaxErrorLine(body: string, stack: string | undefined): string | undefined {
  const at = STACK_POSITION.exec(stack ?? "");
  if (!at) return undefined;
  const lines = body.split("\n");
  const index = Number(at[1]) - BODY_OFFSET - 1;
  if (index < 0 || index >= lines.length) return undefined;
  // The template's code ends where EJS closes its `with (locals) {` block, right before `return __output;`.
  const end = lines.lastIndexOf("  return __output;") - 1;
  if (end > 0 && index >= end) return "at the end of the template: check that each {, ( and [ is closed, once";
  let line = 1;
  for (let i = lines.findIndex((l) => l.startsWith(TOKEN)); i >= 0 && i <= index; i++) {
    const mark = LINE_MARK.exec(lines[i]!);
    if (mark) line = Number(mark[1]);
    // A line that starts no token continues a tag spread over several template lines.
    else if (!lines[i]!.startsWith(TOKEN)) line++;
  }
  return `template line ${line}`;
}
