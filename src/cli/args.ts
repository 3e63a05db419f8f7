// What a command is (its synopsis, help and options), and how its flags are parsed: the service's
// settings plus the command's own options.
import { parseArgs } from "node:util";
import { loadConfig } from "../config/load";
import { type Config, settings } from "../config/settings";

export class UsageError extends Error {}

export interface CommandOption {
  name: string;
  help: string;
  boolean?: boolean;
  /** A one-letter alias (e.g. "o" for --output). */
  short?: string;
  /** How its value reads in the usage (e.g. "FILE|-"); none for a boolean. */
  value?: string;
}

export interface Parsed {
  config: Config;
  values: Record<string, string | boolean | undefined>;
  positionals: string[];
}

/** One command of `reportgen` (or a subcommand: "admin create-key"), listed once in commands.ts. */
export interface Command {
  name: string;
  /** What follows the name in its synopsis: its argument and flags. */
  args?: string;
  /** One sentence: its line in `reportgen help` and the first line of its --help. */
  summary: string;
  /** One paragraph more for its --help: what it needs, what it prints, its exit codes. */
  more?: string;
  options?: CommandOption[];
  /** The name of its one argument (e.g. "TEMPLATE"); without it, it takes none. */
  positional?: string;
  /** How many arguments it takes when more than one (diff: A and B); `positional` names them. */
  arity?: number;
  /** Its --help lists every setting (serve); the others point to `reportgen help` for them. */
  listsSettings?: boolean;
  /** false: it reads no settings and no flags (help, version). */
  settings?: false;
  /** serve: run() resolves once the service listens, and the process runs on until a signal stops it. */
  keepsRunning?: true;
  /**
   * Runs it, returning the exit code. `parse` reads argv as this command's flags and settings (and
   * refuses arguments it does not take); `argv` is the command line after the command's name.
   */
  run(parse: () => Parsed, argv: string[]): Promise<number> | number;
}

/** Whether argv asks for help (--help or -h before any `--`): it wins over everything else on the line. */
export function wantsHelp(argv: string[]): boolean {
  const end = argv.indexOf("--");
  return (end < 0 ? argv : argv.slice(0, end)).some((a) => a === "--help" || a === "-h");
}

/** Parses argv as `cmd`'s flags and settings, and checks its arguments. */
export function parseFor(cmd: Command, argv: string[]): Parsed {
  const parsed = parseCommand(argv, cmd.options);
  const extra = parsed.positionals;
  if (!cmd.positional && extra.length) throw new UsageError(`${cmd.name} takes no arguments, only flags: ${extra.join(" ")}`);
  const most = cmd.arity ?? 1;
  if (cmd.positional && extra.length > most)
    throw new UsageError(`${cmd.name} takes ${most === 1 ? "one" : most} ${cmd.positional}, not ${extra.length}: ${extra.join(" ")}`);
  return parsed;
}

export function parseCommand(argv: string[], own: CommandOption[] = []): Parsed {
  const options: Record<string, { type: "string" | "boolean"; short?: string }> = {};
  for (const s of Object.values(settings)) options[s.flag] = { type: "string" };
  for (const o of own) options[o.name] = { type: o.boolean ? "boolean" : "string", ...(o.short ? { short: o.short } : {}) };
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({ args: argv, options, allowPositionals: true, strict: true });
  } catch (e) {
    // Node's advice about `--` after an unknown option is for positional arguments, which are not the likely mistake.
    throw new UsageError((e as Error).message.replace(/\. To specify a positional argument[\s\S]*$/, ""));
  }
  const values = parsed.values as Record<string, string | boolean | undefined>;
  const flags: Record<string, string | undefined> = {};
  for (const [k, v] of Object.entries(values)) if (typeof v === "string") flags[k] = v;
  return { config: loadConfig(flags), values, positionals: parsed.positionals };
}
