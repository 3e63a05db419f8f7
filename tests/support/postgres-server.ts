// A throwaway PostgreSQL for the tests and the benches: Debian's PostgreSQL 15 binaries, initdb'd into a
// temp dir and started on a free loopback port, as the `postgres` user when we run as root (PostgreSQL
// refuses to run as root). One fresh database per caller (createDatabase). With
// REPORTGEN_TEST_DATABASE_URL set, that server is used instead and nothing is started; restart() and
// down() then throw, since the starter does not own the server. Tests use it through
// tests/helpers/postgres.ts (one server per test file); scripts/queue-bench.ts and the bench's cluster
// mode call startPostgres() directly. It lives here, not under tests/, because scripts must not import tests.
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "../../src/lib/ports";

/** Debian's PostgreSQL 15 binaries; another installed major version when 15 is absent (scripts/setup installs 15). */
export const PG_BIN = process.env.REPORTGEN_TEST_PG_BIN ?? findPgBin();

function findPgBin(): string {
  const root = "/usr/lib/postgresql";
  const preferred = join(root, "15", "bin");
  if (existsSync(join(preferred, "pg_ctl"))) return preferred;
  const versions = existsSync(root) ? readdirSync(root).filter((v) => existsSync(join(root, v, "bin", "pg_ctl"))) : [];
  const newest = versions.sort((a, b) => Number(b) - Number(a))[0];
  return newest ? join(root, newest, "bin") : preferred;
}

export interface PgServer {
  /** postgres://… of the server's `postgres` database. */
  url: string;
  /** False when REPORTGEN_TEST_DATABASE_URL names a server this helper does not control. */
  owned: boolean;
  /** A new, empty database on this server; its URL. */
  createDatabase: (name?: string) => Promise<string>;
  /** Stops the server (fast shutdown: sessions are cut) and starts it again on the same port and data. */
  restart: () => Promise<void>;
  /** Stops the server without removing anything: clients see connection refused until up(). */
  down: (mode?: "fast" | "immediate") => Promise<void>;
  /** Starts a server taken down by down(). */
  up: () => Promise<void>;
  /** Stops the server and removes its files. */
  stop: () => Promise<void>;
  /** The postmaster's pid while the server runs (undefined when not owned), for CPU accounting. */
  pid: () => number | undefined;
}

const isRoot = process.getuid?.() === 0;

/** Runs a PostgreSQL binary as the `postgres` user when we are root, else as ourselves. */
function asPostgres(cmd: string[]): string[] {
  return isRoot ? [RUNUSER, "-u", "postgres", "--", ...cmd] : cmd;
}

/** util-linux's runuser lives in /usr/sbin, which a CI's PATH may leave out. */
const RUNUSER = Bun.which("runuser") ?? ["/usr/sbin/runuser", "/sbin/runuser"].find((p) => existsSync(p)) ?? "runuser";

async function run(cmd: string[], what: string, log?: string): Promise<void> {
  const p = Bun.spawn(cmd, { stdout: "pipe", stderr: "pipe" });
  const [out, err, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  if (code !== 0) {
    const tail = log && existsSync(log) ? readFileSync(log, "utf8").slice(-2000) : "";
    throw new Error(`${what} failed (exit ${code}): ${err || out}${tail ? `\nserver log:\n${tail}` : ""}`);
  }
}

let counter = 0;
const dbName = () => `t_${process.pid}_${Date.now().toString(36)}_${counter++}`;

async function createDb(base: string, name: string): Promise<string> {
  // createdb takes the maintenance database as a connection string: host, port and user come from it.
  await run([join(PG_BIN, "createdb"), `--maintenance-db=${base}`, name], `createdb ${name}`);
  const u = new URL(base);
  u.pathname = `/${name}`;
  return u.toString();
}

/** Settings for every start; `settings` adds or overrides (e.g. { max_connections: "200" }). */
export interface PgOptions {
  settings?: Record<string, string>;
}

/** Starts a server (or adopts REPORTGEN_TEST_DATABASE_URL's). Call stop() when done. */
export async function startPostgres(opts: PgOptions = {}): Promise<PgServer> {
  const external = process.env.REPORTGEN_TEST_DATABASE_URL;
  if (external) {
    const notOwned = () => Promise.reject(new Error("REPORTGEN_TEST_DATABASE_URL names a server this helper cannot restart"));
    return {
      url: external,
      owned: false,
      createDatabase: (name = dbName()) => createDb(external, name),
      restart: notOwned,
      down: notOwned,
      up: notOwned,
      stop: async () => {},
      pid: () => undefined,
    };
  }
  if (!existsSync(join(PG_BIN, "pg_ctl"))) {
    throw new Error(
      `PostgreSQL binaries not found in ${PG_BIN}: run scripts/setup (apt-get install postgresql-15), or set REPORTGEN_TEST_DATABASE_URL`,
    );
  }
  // The postgres user must reach the folder: a private TMPDIR of root's would not do.
  const base = isRoot && (statSync(tmpdir()).mode & 0o001) === 0 ? "/tmp" : tmpdir();
  const dir = mkdtempSync(join(base, "reportgen-pg-"));
  if (isRoot) chownSync(dir, uidOf("postgres"), gidOf("postgres"));
  const data = join(dir, "data");
  const log = join(dir, "server.log");
  await run(asPostgres([join(PG_BIN, "initdb"), "-A", "trust", "-U", "postgres", "-E", "UTF8", "--no-sync", "-D", data]), "initdb");

  let port = 0;
  let running = false;
  const pgctl = (...args: string[]) => asPostgres([join(PG_BIN, "pg_ctl"), "-D", data, "-l", log, ...args]);
  const start = async () => {
    const settings = { listen_addresses: "127.0.0.1", unix_socket_directories: dir, ...opts.settings };
    const o = [`-p ${port}`, ...Object.entries(settings).map(([k, v]) => `-c ${k}=${v}`)].join(" ");
    await run(pgctl("-w", "-t", "60", "-o", o, "start"), "pg_ctl start", log);
    running = true;
  };
  // A port free a moment ago may be taken by the time the server binds it: try a few.
  for (let i = 0; ; i++) {
    port = await freePort();
    try {
      await start();
      break;
    } catch (e) {
      if (i >= 4 || !readFileSync(log, "utf8").includes("could not bind")) {
        rmSync(dir, { recursive: true, force: true });
        throw e;
      }
    }
  }
  const down = async (mode: "fast" | "immediate" = "fast") => {
    await run(pgctl("-w", "-m", mode, "stop"), "pg_ctl stop", log);
    running = false;
  };
  // A test that dies before its afterAll must not leave a server running.
  const onExit = () => {
    if (running) Bun.spawnSync(pgctl("-m", "immediate", "stop"));
    rmSync(dir, { recursive: true, force: true });
  };
  process.once("exit", onExit);
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  return {
    url,
    owned: true,
    createDatabase: (name = dbName()) => createDb(url, name),
    restart: async () => {
      await down("fast");
      await start();
    },
    down,
    up: start,
    // postmaster.pid's first line is the postmaster's pid (PostgreSQL's documented file layout).
    pid: () => {
      const file = join(data, "postmaster.pid");
      return running && existsSync(file) ? Number(readFileSync(file, "utf8").split("\n")[0]) || undefined : undefined;
    },
    stop: async () => {
      process.off("exit", onExit);
      if (running) await down("immediate");
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

function idField(name: string, field: 2 | 3): number {
  const line = readFileSync("/etc/passwd", "utf8")
    .split("\n")
    .find((l) => l.startsWith(`${name}:`));
  if (!line)
    throw new Error(`no user ${name}: install Debian's postgresql package (it creates the user), or run the tests as a non-root user`);
  return Number(line.split(":")[field]);
}
const uidOf = (name: string) => idField(name, 2);
const gidOf = (name: string) => idField(name, 3);
