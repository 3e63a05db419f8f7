// Dispatches `reportgen <command>`; prints usage and maps failures to exit codes (2: usage, 1: error).
import { ConfigError, settingsHelp } from "../config/load";
import { SchemaTooNewError } from "../db/migrate";
import { StartupError } from "../lib/errors";
import { VERSION } from "../version";
import { type CommandOption, parseCommand, UsageError } from "./args";

const usage = `reportgen ${VERSION}: HTML/EJS to PDF reports over HTTP, in one executable.

Usage: reportgen <command> [flags]

Commands:
  serve                                   Run the HTTP service (the default when no command is given)
  migrate                                 Apply database migrations and exit
  migrate-to --database-url URL           Copy this install (SQLite) into PostgreSQL; resumable, verified
  cleanup                                 Expire reports past retention and remove their PDFs, once
  backup --to DIR                         Copy the database and PDFs, consistently, while the service runs
  admin create-key --name NAME [--account ACCOUNT] [--scopes a,b] [--expires-at RFC3339] [--max-reports-per-day N]
                                          Mint an access key (value alone on stdout; every scope unless
                                          --scopes); creates the account
  admin list-keys [--account ACCOUNT]     List keys (never their values)
  admin delete-key ID                     Delete a key; it is rejected at once
  admin webhook-secret [--account ACCOUNT] [--rotate]
                                          Print the account's webhook signing secret (alone on stdout),
                                          or replace it (the old one also signs for 24 h)
  doctor [--json]                         Check this machine for what the service needs (Chromium, fonts,
                                          sandbox, /dev/shm, data dir, port, file limit); exit 0 when all pass
  render TEMPLATE [--data FILE|-] [--engine ejs|raw] [--options FILE] [-o OUT|-]
                                          Print one PDF without a server, database or key (exit 0: a PDF,
                                          2: the template's or input's fault, 1: the service's fault)
  version                                 Print the version
  help                                    This text

Every setting is a flag and an environment variable (flags win):
${settingsHelp()}
`;

const adminOptions: CommandOption[] = [
  { name: "name", help: "key name" },
  { name: "account", help: "account name" },
  { name: "rotate", help: "replace the webhook secret", boolean: true },
  { name: "scopes", help: "comma-separated scopes of a new key (default: all)" },
  { name: "expires-at", help: "RFC 3339 time a new key stops working" },
  { name: "max-reports-per-day", help: "a new key's daily report quota" },
];

export async function runCli(argv: string[]): Promise<number> {
  const [command = "serve", ...rest] = argv;
  try {
    switch (command) {
      case "serve": {
        const { config } = parseCommand(rest);
        await (await import("./serve")).serve(config);
        return 0;
      }
      case "migrate":
        await (await import("./migrate")).migrate(parseCommand(rest).config);
        return 0;
      case "migrate-to":
        await (await import("./migrate-to")).migrateToCommand(parseCommand(rest).config);
        return 0;
      case "cleanup":
        await (await import("./cleanup")).cleanup(parseCommand(rest).config);
        return 0;
      case "backup": {
        const { config, values } = parseCommand(rest, [{ name: "to", help: "backup folder (new or empty)" }]);
        (await import("./backup")).backup(config, values.to as string | undefined);
        return 0;
      }
      case "admin": {
        const [sub, ...args] = rest;
        const { config, values, positionals } = parseCommand(args, adminOptions);
        const admin = await import("./admin");
        const name = values.name as string | undefined;
        const account = values.account as string | undefined;
        if (sub === "create-key")
          await admin.createKey(config, name, account, {
            scopes: values.scopes as string | undefined,
            expiresAt: values["expires-at"] as string | undefined,
            maxReportsPerDay: values["max-reports-per-day"] as string | undefined,
          });
        else if (sub === "list-keys") await admin.listKeys(config, account);
        else if (sub === "delete-key") await admin.deleteKey(config, positionals[0]);
        else if (sub === "webhook-secret") await admin.webhookSecret(config, account, values.rotate === true);
        else
          throw new UsageError(
            `unknown admin command ${JSON.stringify(sub ?? "")}: use create-key, list-keys, delete-key or webhook-secret`,
          );
        return 0;
      }
      case "doctor": {
        const { doctorOptions, doctor } = await import("./doctor");
        const { config, values, positionals } = parseCommand(rest, doctorOptions);
        if (positionals.length) throw new UsageError(`doctor takes no arguments, only flags: ${positionals.join(" ")}`);
        return await doctor(config, { json: values.json === true });
      }
      case "render": {
        const { renderOptions, render } = await import("./render");
        const { config, values, positionals } = parseCommand(rest, renderOptions);
        if (positionals.length > 1) throw new UsageError(`render takes one TEMPLATE, not ${positionals.length}: ${positionals.join(" ")}`);
        const str = (k: string) => values[k] as string | undefined;
        return await render(config, {
          template: positionals[0],
          data: str("data"),
          engine: str("engine"),
          options: str("options"),
          output: str("output"),
        });
      }
      case "version":
      case "--version":
        console.log(VERSION);
        return 0;
      case "help":
      case "--help":
      case "-h":
        console.log(usage);
        return 0;
      default:
        if (command.startsWith("--")) return runCli(["serve", ...argv]);
        throw new UsageError(`unknown command ${JSON.stringify(command)}`);
    }
  } catch (e) {
    if (e instanceof UsageError || e instanceof ConfigError) {
      console.error(`reportgen: ${e.message}\nRun "reportgen help" for usage.`);
      return 2;
    }
    if (e instanceof SchemaTooNewError || e instanceof StartupError) {
      console.error(`reportgen: ${e.message}`);
      return 1;
    }
    throw e;
  }
}
