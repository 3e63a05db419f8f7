// The usage texts, written from the command table (commands.ts): `reportgen help`, a group's help
// (`reportgen admin --help`) and each command's --help.
import { settingsHelp } from "../config/load";
import { VERSION } from "../version";
import type { Command, CommandOption } from "./args";

const WIDTH = 110;
/** Where the overview's descriptions start. */
const COLUMN = 42;

/** Wraps text to WIDTH, every line after the first indented by `indent`. */
function wrap(text: string, indent: number): string {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(/\s+/)) {
    if (line && indent + line.length + 1 + word.length > WIDTH) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  lines.push(line);
  return lines.join(`\n${" ".repeat(indent)}`);
}

const synopsis = (c: Command) => `reportgen ${c.name}${c.args ? ` ${c.args}` : ""}`;

/** A two-column list: the left side, then its text at `column` (on the next line when the left is too long). */
function rows(items: [string, string][], column = COLUMN): string {
  return items
    .map(([left, text]) => {
      const head = `  ${left}`;
      const gap = head.length + 2 <= column ? " ".repeat(column - head.length) : `\n${" ".repeat(column)}`;
      return `${head}${gap}${wrap(text, column)}`;
    })
    .join("\n");
}

const optionLeft = (o: CommandOption) => `${o.short ? `-${o.short}, ` : ""}--${o.name}${o.value ? ` ${o.value}` : ""}`;

/** `reportgen help`: every command, then every setting. */
export function overview(commands: readonly Command[]): string {
  return `reportgen ${VERSION}: HTML/EJS to PDF reports over HTTP, in one executable.

Usage: reportgen <command> [flags]
       reportgen <command> --help             that command's usage

Commands:
${rows(commands.map((c) => [`${c.name}${c.args ? ` ${c.args}` : ""}`, c.summary]))}

Every setting is a flag and an environment variable (flags win):
${settingsHelp()}
`;
}

/** A command's --help: its synopsis, what it does, its own flags, and where its settings come from. */
export function commandHelp(c: Command): string {
  const parts = [`Usage: ${wrap(synopsis(c), 7)}`, wrap(c.summary, 0)];
  if (c.more) parts.push(wrap(c.more, 0));
  const flags: [string, string][] = [
    ...(c.options ?? []).map((o): [string, string] => [optionLeft(o), o.help]),
    ["-h, --help", "this text"],
  ];
  parts.push(`Flags:\n${rows(flags, Math.max(...flags.map(([left]) => left.length)) + 4)}`);
  if (c.listsSettings) parts.push(`Every setting is a flag and an environment variable (flags win):\n${settingsHelp()}`);
  else if (c.settings !== false)
    parts.push(
      wrap(
        "The service's settings apply too, each a flag or an environment variable (--data-dir or REPORTGEN_DATA_DIR, --log-level, …): `reportgen help` lists them.",
        0,
      ),
    );
  return `${parts.join("\n\n")}\n`;
}

/** A group's help (`reportgen admin --help`): its commands, and how to get each one's flags. */
export function groupHelp(group: string, summary: string, commands: readonly Command[]): string {
  return `Usage: reportgen ${group} <command> [flags]

${wrap(summary, 0)}

Commands:
${rows(commands.map((c) => [`${c.name}${c.args ? ` ${c.args}` : ""}`, c.summary]))}

Run "reportgen ${group} <command> --help" for a command's flags.
`;
}
