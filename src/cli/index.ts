// Dispatches `reportgen <command>` through the command table (commands.ts); `--help` or `-h` anywhere on a
// command's line prints its usage. Maps failures to exit codes (2: usage, 1: error).
import { ConfigError } from "../config/load";
import { SchemaTooNewError } from "../db/migrate";
import { AppError, StartupError } from "../lib/errors";
import { type Command, parseFor, UsageError, wantsHelp } from "./args";
import { COMMANDS, GROUPS, membersOf, usageOf } from "./commands";

const named = (name: string) => COMMANDS.find((c) => c.name === name);

/** The command argv names, and the rest of the line; a group's help is a command of its own. */
function resolve(argv: string[]): { cmd: Command; rest: string[] } | { group: string; rest: string[] } {
  const [first = "serve", ...rest] = argv;
  if (first === "--help" || first === "-h") return { cmd: named("help")!, rest };
  if (first === "--version") return { cmd: named("version")!, rest };
  // Flags alone: `reportgen --port 8080` is `reportgen serve --port 8080`.
  if (first.startsWith("--")) return { cmd: named("serve")!, rest: argv };
  if (GROUPS[first] !== undefined) {
    const sub = rest[0] === undefined ? undefined : named(`${first} ${rest[0]}`);
    return sub ? { cmd: sub, rest: rest.slice(1) } : { group: first, rest };
  }
  const cmd = named(first);
  if (!cmd) throw new UsageError(`unknown command ${JSON.stringify(first)}`);
  return { cmd, rest };
}

/** The exit code of a finished command; undefined while the command runs on (serve, once it listens). */
export async function runCli(argv: string[]): Promise<number | undefined> {
  let helpHint = "reportgen help";
  try {
    const r = resolve(argv);
    if ("group" in r) {
      helpHint = `reportgen ${r.group} --help`;
      if (wantsHelp(r.rest)) {
        console.log(usageOf(r.group));
        return 0;
      }
      const subs = membersOf(r.group).map((c) => c.name.slice(r.group.length + 1));
      const list = `${subs.slice(0, -1).join(", ")} or ${subs.at(-1)}`;
      throw new UsageError(
        r.rest[0] === undefined
          ? `${r.group} needs a command: ${list}`
          : `unknown ${r.group} command ${JSON.stringify(r.rest[0])}: use ${list}`,
      );
    }
    const { cmd, rest } = r;
    helpHint = cmd.name === "help" ? "reportgen help" : `reportgen ${cmd.name} --help`;
    if (wantsHelp(rest)) {
      console.log(usageOf(cmd.name));
      return 0;
    }
    const code = await cmd.run(() => parseFor(cmd, rest), rest);
    return cmd.keepsRunning && code === 0 ? undefined : code;
  } catch (e) {
    if (e instanceof UsageError || e instanceof ConfigError) {
      console.error(`reportgen: ${e.message}\nRun "${helpHint}" for usage.`);
      return 2;
    }
    if (e instanceof SchemaTooNewError || e instanceof StartupError) {
      console.error(`reportgen: ${e.message}`);
      return 1;
    }
    return refusal(e);
  }
}

/**
 * Any other failure, as one readable message and exit 1. An uncaught error would make Bun print a stack
 * trace, lines of the executable's minified source and its banner: kilobytes in which the one line that
 * matters (a refused migration, a database that cannot be reached) is lost. The stack is still there for
 * a bug report, with REPORTGEN_LOG_LEVEL=debug.
 */
function refusal(e: unknown): number {
  const message = e instanceof AppError ? `${e.code}: ${e.message}` : e instanceof Error ? e.message : String(e);
  console.error(`reportgen: ${message.trim() || "failed"}`);
  if (process.env.REPORTGEN_LOG_LEVEL === "debug" && e instanceof Error && e.stack) console.error(e.stack);
  return 1;
}
