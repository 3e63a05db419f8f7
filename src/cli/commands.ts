// Every command of `reportgen`, listed once: its synopsis, help, options and how it runs. `reportgen
// help`, each command's --help and the dispatch in index.ts all read this table, so a command cannot exist
// without its usage. Each command's module is imported only when it runs: `--help` loads none of them.
import { VERSION } from "../version";
import { type Command, UsageError } from "./args";
import { commandHelp, groupHelp, overview } from "./usage";

const str = (v: string | boolean | undefined) => (typeof v === "string" ? v : undefined);

/** Groups of subcommands (`reportgen admin <command>`) and what each group is for. */
export const GROUPS: Record<string, string> = {
  admin: "Manage access keys and webhook signing secrets, through the same services the API uses.",
};

export const COMMANDS: readonly Command[] = [
  {
    name: "serve",
    args: "[flags]",
    summary: "Run the HTTP service (the default when no command is given).",
    more: "It runs until SIGTERM or SIGINT, then stops taking requests and finishes the renders in flight.",
    listsSettings: true,
    keepsRunning: true,
    run: async (parse) => {
      await (await import("./serve")).serve(parse().config);
      return 0;
    },
  },
  {
    name: "migrate",
    summary: "Apply database migrations and exit.",
    more: "Migrations are embedded and also run at start; a database written by a newer version is refused.",
    run: async (parse) => {
      await (await import("./migrate")).migrate(parse().config);
      return 0;
    },
  },
  {
    name: "migrate-to",
    args: "--database-url URL [--storage-url s3://BUCKET/PREFIX]",
    summary: "Copy this install (SQLite) into PostgreSQL, and its PDFs into a bucket with --storage-url; resumable, verified.",
    more: "Stop the server first. Each table is copied and verified by checksum; a second run resumes.",
    run: async (parse) => {
      await (await import("./migrate-to")).migrateToCommand(parse().config);
      return 0;
    },
  },
  {
    name: "cleanup",
    summary: "Expire reports past retention and remove their PDFs, once (the server runs it every 10 minutes).",
    run: async (parse) => {
      await (await import("./cleanup")).cleanup(parse().config);
      return 0;
    },
  },
  {
    name: "backup",
    args: "--to DIR",
    summary: "Copy the database and PDFs, consistently, while the service runs.",
    more: 'Restore: stop the service, then copy DIR into place as its --data-dir (see the README, "Backups").',
    options: [{ name: "to", value: "DIR", help: "backup folder (new or empty)" }],
    run: async (parse) => {
      const { config, values } = parse();
      (await import("./backup")).backup(config, str(values.to));
      return 0;
    },
  },
  {
    name: "admin create-key",
    args: "--name NAME [--account ACCOUNT] [--scopes a,b] [--expires-at RFC3339] [--max-reports-per-day N]",
    summary: "Mint an access key (its value alone on stdout; every scope unless --scopes); creates the account.",
    more: "The value is shown only this once: KEY=$(reportgen admin create-key --name ci) captures it.",
    options: [
      { name: "name", value: "NAME", help: "what the key is for" },
      { name: "account", value: "ACCOUNT", help: 'account name (default: "default")' },
      { name: "scopes", value: "a,b", help: "comma-separated scopes (default: all)" },
      { name: "expires-at", value: "RFC3339", help: "when the key stops working" },
      { name: "max-reports-per-day", value: "N", help: "the key's daily report quota" },
    ],
    run: async (parse) => {
      const { config, values } = parse();
      await (await import("./admin")).createKey(config, str(values.name), str(values.account), {
        scopes: str(values.scopes),
        expiresAt: str(values["expires-at"]),
        maxReportsPerDay: str(values["max-reports-per-day"]),
      });
      return 0;
    },
  },
  {
    name: "admin list-keys",
    args: "[--account ACCOUNT]",
    summary: "List keys (never their values).",
    options: [{ name: "account", value: "ACCOUNT", help: "only this account's keys" }],
    run: async (parse) => {
      const { config, values } = parse();
      await (await import("./admin")).listKeys(config, str(values.account));
      return 0;
    },
  },
  {
    name: "admin delete-key",
    args: "ID",
    summary: "Delete a key (ID from list-keys); it is rejected at once.",
    positional: "ID",
    run: async (parse) => {
      const { config, positionals } = parse();
      await (await import("./admin")).deleteKey(config, positionals[0]);
      return 0;
    },
  },
  {
    name: "admin webhook-secret",
    args: "[--account ACCOUNT] [--rotate]",
    summary: "Print the account's webhook signing secret (alone on stdout), or replace it with --rotate (the old one also signs for 24 h).",
    options: [
      { name: "account", value: "ACCOUNT", help: 'account name (default: "default")' },
      { name: "rotate", boolean: true, help: "replace the secret" },
    ],
    run: async (parse) => {
      const { config, values } = parse();
      await (await import("./admin")).webhookSecret(config, str(values.account), values.rotate === true);
      return 0;
    },
  },
  {
    name: "doctor",
    args: "[--json]",
    summary:
      "Check this machine for what the service needs (Chromium, fonts, sandbox, /dev/shm, data dir, port, file limit); exit 0 when all pass.",
    more: "It takes the same settings as serve: run it as the service's user, with its flags and environment. Warnings do not fail it.",
    options: [{ name: "json", boolean: true, help: 'print the result as JSON: {"ok", "version", "checks": [...]}' }],
    run: async (parse) => {
      const { config, values } = parse();
      return await (await import("./doctor")).doctor(config, { json: values.json === true });
    },
  },
  {
    name: "render",
    args: "TEMPLATE [--data FILE|-] [--engine ejs|raw] [--options FILE] [-o OUT|-]",
    summary: "Print one PDF without a server, database or key (exit 0: a PDF, 2: the template's or input's fault, 1: the service's fault).",
    more: "TEMPLATE is a file (.ejs, .html or .htm), or - for stdin with --engine. It uses the service's EJS sandbox, limits, network policy, fonts and print options; a failure prints the API's failure code and message on stderr.",
    positional: "TEMPLATE",
    options: [
      { name: "data", value: "FILE|-", help: "JSON file with the template's values, or - for stdin (EJS only; default {})" },
      { name: "engine", value: "ejs|raw", help: "default: from the extension (.ejs is ejs, .html/.htm is raw)" },
      {
        name: "options",
        value: "FILE",
        help: "JSON file with the print options of the API's `options` field (post-processing such as pdfa or watermark: API only)",
      },
      { name: "output", short: "o", value: "OUT|-", help: "where the PDF goes, or - for stdout (default: stdout unless it is a terminal)" },
    ],
    run: async (parse) => {
      const { config, values, positionals } = parse();
      return await (await import("./render")).render(config, {
        template: positionals[0],
        data: str(values.data),
        engine: str(values.engine),
        options: str(values.options),
        output: str(values.output),
      });
    },
  },
  {
    name: "diff",
    args: "A.pdf B.pdf [--tolerance R] [--out DIR]",
    summary:
      "Compare two PDFs page by page as pictures, as golden samples compare template versions (exit 0: same, 1: pages differ, 2: bad input).",
    more: "It prints one line per changed page (its page number and share of changed pixels, or added/removed) and writes each changed page's diff PNG (the new page, changed pixels in red) to DIR as page-001.png, ...",
    positional: "A.pdf B.pdf",
    arity: 2,
    options: [
      {
        name: "tolerance",
        value: "R",
        help: "a pixel differs when a channel differs by more than R x 255 (0 to 1; default --golden-tolerance, 0.1)",
      },
      { name: "out", value: "DIR", help: "folder for the diff PNGs of changed pages (created if missing)" },
    ],
    run: async (parse) => {
      const { config, values, positionals } = parse();
      return await (await import("./diff")).diff(config, { files: positionals, tolerance: str(values.tolerance), out: str(values.out) });
    },
  },
  {
    name: "version",
    summary: "Print the version.",
    settings: false,
    run: (_parse, argv) => {
      if (argv.length > 0) throw new UsageError(`version takes no arguments or flags: ${argv.join(" ")}`);
      console.log(VERSION);
      return 0;
    },
  },
  {
    name: "help",
    args: "[COMMAND]",
    summary: "Print this overview, or a command's usage (the same as COMMAND --help).",
    settings: false,
    run: (_parse, argv) => {
      const text = usageOf(argv.join(" "));
      if (text === undefined) throw new UsageError(`unknown command ${JSON.stringify(argv.join(" "))}`);
      console.log(text);
      return 0;
    },
  },
];

/** The subcommands of a group, e.g. "admin". */
export const membersOf = (group: string) => COMMANDS.filter((c) => c.name.startsWith(`${group} `));

/** The usage of a command or a group by name ("" for the overview); undefined for an unknown name. */
export function usageOf(name: string): string | undefined {
  if (!name) return overview(COMMANDS);
  const cmd = COMMANDS.find((c) => c.name === name);
  if (cmd) return commandHelp(cmd);
  const group = GROUPS[name];
  return group === undefined ? undefined : groupHelp(name, group, membersOf(name));
}
