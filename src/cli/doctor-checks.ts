// What `reportgen doctor` checks, in the order it prints them. Each check is a real probe of this machine
// with the service's own settings (write a file, bind the port, start Chromium and print a page), never
// a guess from configuration. To add a check, append one entry to CHECKS: it gets its line, its mark
// and its place in --json by itself (the cluster backends' checks are in doctor-backends.ts).

import { spawnSync } from "node:child_process";
import {
  accessSync,
  chmodSync,
  closeSync,
  constants,
  fsyncSync,
  mkdtempSync,
  openSync,
  rmSync,
  statfsSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { openFileLimit } from "../lib/process-tree";
import { missingRasterTools, RASTER_TOOLS } from "../pdf/raster";
import { writeFontconfig } from "../render/fonts";
import { countPdfPages } from "../render/pdf-page-count";
import { StandaloneRenderer } from "../render/standalone";
import { databaseCheck, storageCheck } from "./doctor-backends";
import type { Check } from "./doctor-types";

const MB = 1024 ** 2;
const mb = (n: number) => `${Math.round(n / MB)} MB`;
const isRoot = () => process.getuid?.() === 0;
const errText = (e: unknown) => ((e as NodeJS.ErrnoException).code ?? (e as Error).message ?? String(e)) as string;

/** Runs a program with a deadline; null when it is not installed. */
function run(cmd: string[], env?: Record<string, string | undefined>) {
  const r = spawnSync(cmd[0]!, cmd.slice(1), { encoding: "utf8", timeout: 15_000, env: env ?? process.env });
  if ((r.error as NodeJS.ErrnoException | undefined)?.code === "ENOENT") return null;
  return { code: r.status, stdout: r.stdout ?? "", stderr: (r.stderr ?? "").trim() || (r.error?.message ?? "") };
}

/** The closest folder of `path` that exists (the path itself when it does). */
function existingAncestor(path: string): string {
  let p = resolve(path);
  for (;;) {
    try {
      if (statSync(p, { throwIfNoEntry: false }) || p === dirname(p)) return p;
    } catch {
      return p; // there but not reachable (EACCES, ENOTDIR): the write probe there says why
    }
    p = dirname(p);
  }
}

/** Creates, writes, fsyncs and removes a file in `dir`: the only sure test that the service can write there. */
function probeWrite(dir: string): void {
  const file = join(dir, `.reportgen-doctor-${process.pid}`);
  try {
    const fd = openSync(file, "wx", 0o600);
    try {
      writeFileSync(fd, "probe\n");
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } finally {
    rmSync(file, { force: true });
  }
}

const SCRIPTS: { name: string; pattern: string[]; pkg: string }[] = [
  { name: "fonts: Latin", pattern: [":lang=en"], pkg: "fonts-liberation" },
  { name: "fonts: Greek, Cyrillic", pattern: [":lang=el", ":lang=ru"], pkg: "fonts-noto-core" },
  { name: "fonts: CJK", pattern: [":lang=zh-cn", ":lang=ja", ":lang=ko"], pkg: "fonts-wqy-microhei" },
  { name: "fonts: emoji", pattern: [":lang=und-zsye"], pkg: "fonts-noto-color-emoji" },
];

/** The fonts Chromium would get for a script, through the service's own fontconfig file (no CFF faces). */
function fontCheck(s: (typeof SCRIPTS)[number]): Check {
  return {
    name: s.name,
    run(ctx) {
      const env = { ...process.env, FONTCONFIG_FILE: writeFontconfig(ctx.tmp, ctx.config.fontsDir || undefined) };
      const found: string[] = [];
      const all = new Set<string>();
      for (const pattern of s.pattern) {
        const r = run(["fc-list", "--format", "%{family[0]}\\n", pattern], env);
        if (!r) return { status: "fail", detail: "fc-list is not installed", fix: "apt-get install fontconfig" };
        const families = [...new Set(r.stdout.split("\n").filter(Boolean))].sort();
        if (families.length === 0)
          return {
            status: "fail",
            detail: `no usable (TrueType) font for ${pattern.replace(/^:/, "")}`,
            fix: `apt-get install ${s.pkg}, or put .ttf files in --fonts-dir`,
          };
        // Named first: the face fontconfig picks for sans-serif text of that script, when it covers it.
        const picked = run(["fc-match", "--format", "%{family[0]}", `sans-serif${pattern}`], env)?.stdout.trim();
        found.push(...(picked && families.includes(picked) ? [picked] : families.slice(0, 1)));
        for (const f of families) all.add(f);
      }
      const named = [...new Set(found)];
      const more = all.size - named.length;
      return { status: "ok", detail: `${named.join(", ")}${more > 0 ? ` and ${more} more ${more > 1 ? "families" : "family"}` : ""}` };
    },
  };
}

/** The version a reportgen answering /livez on this port reports, if one does. */
async function runningReportgen(host: string, port: number): Promise<string | undefined> {
  const h = host === "0.0.0.0" || host === "::" || host === "" ? "127.0.0.1" : host.includes(":") ? `[${host}]` : host;
  try {
    const r = await fetch(`http://${h}:${port}/livez`, { signal: AbortSignal.timeout(2_000) });
    const body = (await r.json()) as { status?: unknown; version?: unknown };
    return body.status === "ok" && typeof body.version === "string" ? body.version : undefined;
  } catch {
    return undefined;
  }
}

/** A page with every script the fonts lines check: Chromium must lay it out and print it. */
const TEST_PAGE = `<!doctype html><meta charset="utf-8"><title>reportgen doctor</title>
<p>Latin: The quick brown fox. Ελληνικά. Кириллица. 中文 日本語 한국어. 😀</p>`;

/** A check of what only rendering needs: skipped for `--role api`, which renders nothing. */
function forRendering(check: Check): Check {
  return {
    name: check.name,
    run: (ctx) => (ctx.config.role === "api" ? { status: "skip", detail: "not needed: --role api renders nothing" } : check.run(ctx)),
  };
}

const checks: Check[] = [
  {
    name: "Chromium found",
    run({ config: c }) {
      const st = statSync(c.chromiumPath, { throwIfNoEntry: false });
      if (!st?.isFile())
        return {
          status: "fail",
          detail: `no Chromium at ${c.chromiumPath}`,
          fix: "apt-get install chromium-headless-shell, or set --chromium-path / REPORTGEN_CHROMIUM_PATH",
        };
      try {
        accessSync(c.chromiumPath, constants.X_OK);
      } catch {
        return { status: "fail", detail: `${c.chromiumPath} is not executable`, fix: `chmod +x ${c.chromiumPath}, or set --chromium-path` };
      }
      const v = run([c.chromiumPath, "--version"]);
      const version = v?.code === 0 ? v.stdout.trim() : "";
      if (!/chrom/i.test(version))
        return {
          status: "warn",
          detail: `${c.chromiumPath}: its --version says ${JSON.stringify(version || v?.stderr || "nothing")}, not Chromium's version`,
          fix: "set --chromium-path to Chromium's real binary (/usr/lib/chromium/chromium-headless-shell or /usr/lib/chromium/chromium)",
        };
      return { status: "ok", detail: `${c.chromiumPath}: ${version}` };
    },
  },
  {
    name: "Chromium sandbox",
    run() {
      // Chromium's sandbox needs an unprivileged user namespace: try to make one as an unprivileged user.
      const probe = isRoot()
        ? run(["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", "unshare", "--user", "--map-root-user", "true"])
        : run(["unshare", "--user", "--map-root-user", "true"]);
      const userns = probe === null ? undefined : probe.code === 0;
      const why = probe && probe.code !== 0 ? ` (${probe.stderr.split("\n")[0]})` : "";
      const kernelFix =
        "allow unprivileged user namespaces: sysctl kernel.unprivileged_userns_clone=1 and user.max_user_namespaces>0 (Ubuntu: kernel.apparmor_restrict_unprivileged_userns=0)";
      if (isRoot())
        return {
          status: "warn",
          detail: `off: running as root, Chromium runs with --no-sandbox; for an unprivileged user, user namespaces are ${userns === undefined ? "untested (setpriv/unshare missing)" : userns ? "available" : `refused${why}`}`,
          fix:
            userns === false
              ? `run reportgen as an unprivileged user (deploy/reportgen.service) and ${kernelFix}`
              : "run reportgen as an unprivileged user (deploy/reportgen.service)",
        };
      if (userns === undefined)
        return { status: "warn", detail: "untested: unshare (util-linux) is not installed", fix: "apt-get install util-linux" };
      return userns
        ? { status: "ok", detail: "on: user namespaces are available" }
        : { status: "fail", detail: `Chromium's sandbox cannot start: user namespaces are refused${why}`, fix: kernelFix };
    },
  },
  {
    name: "Chromium prints",
    async run(ctx) {
      if (ctx.results.get("Chromium found")?.status === "fail")
        return { status: "skip", detail: "no Chromium to start", fix: "see Chromium found" };
      const renderer = new StandaloneRenderer(ctx.config, ctx.logger);
      const t0 = performance.now();
      try {
        await renderer.start({ ejs: false });
        const pdf = await renderer.pool!.render({
          html: TEST_PAGE,
          options: (await import("../pdf/options")).resolvePdfOptions(null),
        });
        return {
          status: "ok",
          detail: `started and printed ${countPdfPages(pdf)} page (${pdf.length} bytes) in ${Math.round(performance.now() - t0)} ms`,
        };
      } catch (e) {
        return {
          status: "fail",
          detail: `Chromium did not print a page: ${(e as Error).message.replace(/; run "reportgen doctor".*$/, "")}`,
          fix: "see the sandbox and /dev/shm lines; run with --log-level debug for Chromium's own output; apt-get install --reinstall chromium-headless-shell",
        };
      } finally {
        await renderer.stop();
      }
    },
  },
  ...SCRIPTS.map(fontCheck),
  {
    name: "/dev/shm",
    run() {
      try {
        const s = statfsSync("/dev/shm");
        const size = s.blocks * s.bsize;
        const free = s.bavail * s.bsize;
        // Chromium runs with --disable-dev-shm-usage (its shared memory goes to TMPDIR), so a small one is no failure.
        if (free < 64 * MB)
          return {
            status: "warn",
            detail: `${mb(free)} free of ${mb(size)}; Chromium uses TMPDIR instead (--disable-dev-shm-usage)`,
            fix: "docker: --shm-size=256m",
          };
        return { status: "ok", detail: `${mb(free)} free of ${mb(size)}` };
      } catch (e) {
        return {
          status: "warn",
          detail: `not usable (${errText(e)}); Chromium uses TMPDIR instead (--disable-dev-shm-usage)`,
          fix: "mount a tmpfs on /dev/shm",
        };
      }
    },
  },
  {
    name: "TMPDIR",
    run() {
      // Bun unpacks the argon2 addon here at start and loads it: the folder must take writes and allow exec.
      const dir = tmpdir();
      const fix = "set TMPDIR to a writable folder on a filesystem mounted without noexec";
      let probe: string | undefined;
      try {
        probe = mkdtempSync(join(dir, "reportgen-doctor-"));
        const script = join(probe, "x.sh");
        writeFileSync(script, "#!/bin/sh\nexit 0\n");
        chmodSync(script, 0o700);
        const r = spawnSync(script, { timeout: 5_000 });
        if (r.status !== 0) return { status: "fail", detail: `${dir}: files there cannot be executed (noexec?)`, fix };
        return { status: "ok", detail: `${dir}: writable, allows exec` };
      } catch (e) {
        return { status: "fail", detail: `${dir}: ${errText(e)}`, fix };
      } finally {
        if (probe) rmSync(probe, { recursive: true, force: true });
      }
    },
  },
  {
    name: "data dir",
    run({ config: c }) {
      const dir = resolve(c.dataDir);
      const fix = `make ${dir} a folder the service's user can write (chown -R USER ${dir}), or choose --data-dir / REPORTGEN_DATA_DIR`;
      let st: ReturnType<typeof statSync>;
      try {
        st = statSync(dir, { throwIfNoEntry: false });
      } catch (e) {
        return { status: "fail", detail: `${dir} cannot be reached (${errText(e)})`, fix };
      }
      if (st && !st.isDirectory()) return { status: "fail", detail: `${dir} is not a folder`, fix };
      const where = st ? dir : existingAncestor(dir);
      try {
        probeWrite(where);
      } catch (e) {
        return { status: "fail", detail: `${where} is not writable (${errText(e)})${st ? "" : `: ${dir} cannot be created`}`, fix };
      }
      const s = statfsSync(where);
      const free = s.bavail * s.bsize;
      const created = st ? "" : ", created at the first start";
      if (free < c.minFreeSpace)
        return {
          status: "fail",
          detail: `${dir}: ${mb(free)} free, below --min-free-space ${mb(c.minFreeSpace)}${created}`,
          fix: "free space on that filesystem, or lower --min-free-space",
        };
      return { status: "ok", detail: `${dir}: writable, ${mb(free)} free (--min-free-space ${mb(c.minFreeSpace)})${created}` };
    },
  },
  {
    name: "secret files",
    run({ config: c, results }) {
      if (results.get("data dir")?.status === "fail") return { status: "skip", detail: "the data dir is not usable", fix: "see data dir" };
      const uid = process.getuid?.();
      const bad: string[] = [];
      const seen: string[] = [];
      for (const name of ["link-secret", "auth-pepper"]) {
        const file = join(resolve(c.dataDir), name);
        let st: ReturnType<typeof statSync>;
        try {
          st = statSync(file, { throwIfNoEntry: false });
        } catch (e) {
          if ((e as NodeJS.ErrnoException).code === "ENOTDIR") continue; // no data dir: the line above says so
          bad.push(`${file} cannot be checked (${errText(e)})`);
          continue;
        }
        if (!st) continue;
        seen.push(name);
        if ((st.mode & 0o077) !== 0) bad.push(`${file} is readable by others (mode ${(st.mode & 0o777).toString(8)})`);
        if (uid !== undefined && st.uid !== uid) bad.push(`${file} belongs to uid ${st.uid}, not to this user (${uid})`);
      }
      if (bad.length) return { status: "fail", detail: bad.join("; "), fix: "chmod 600 the files and chown them to the service's user" };
      return {
        status: "ok",
        detail: seen.length ? `${seen.join(", ")}: mode 600, owned by this user` : "none yet (created with mode 600 at the first start)",
      };
    },
  },
  {
    name: "port",
    async run({ config: c }) {
      if (c.port === 0) return { status: "ok", detail: "--port 0: a free port is picked at start" };
      const error = await new Promise<NodeJS.ErrnoException | undefined>((done) => {
        const s = createServer();
        s.once("error", (e) => done(e));
        s.listen({ port: c.port, host: c.host, exclusive: true }, () => s.close(() => done(undefined)));
      });
      if (!error) return { status: "ok", detail: `${c.host}:${c.port} is free to bind` };
      // Taken by reportgen itself (doctor run after the service started): that is the port working.
      const running = error.code === "EADDRINUSE" ? await runningReportgen(c.host, c.port) : undefined;
      if (running) return { status: "ok", detail: `${c.host}:${c.port} is in use by a running reportgen ${running} (its /livez answers)` };
      const fix =
        error.code === "EACCES"
          ? "ports below 1024 need privileges: use a port above 1024 behind your proxy"
          : `stop what listens there (ss -ltnp 'sport = :${c.port}'; a running reportgen is expected there), or choose --port / REPORTGEN_PORT`;
      return { status: "fail", detail: `${c.host}:${c.port}: ${error.code === "EADDRINUSE" ? "already in use" : errText(error)}`, fix };
    },
  },
  {
    name: "open-file limit",
    run({ config: c }) {
      const limit = openFileLimit();
      // What settings.ts's defaultMaxConnections assumes: four descriptors a connection, 1024 in reserve.
      const needed = c.maxConnections * 4 + 1024;
      if (limit >= needed)
        return { status: "ok", detail: `${limit}, enough for --max-connections ${c.maxConnections || "off"} (needs ${needed})` };
      return {
        status: "fail",
        detail: `${limit}, below the ${needed} that --max-connections ${c.maxConnections} needs`,
        fix: `raise it (LimitNOFILE=65536 in the systemd unit, ulimit -n), or lower --max-connections to ${Math.max(0, Math.floor((limit - 1024) / 4))}`,
      };
    },
  },
  {
    name: "image tools",
    run() {
      const missing = missingRasterTools();
      if (!missing.length) return { status: "ok", detail: `${Object.values(RASTER_TOOLS).join(", ")} found (options.image)` };
      return {
        status: "warn",
        detail: `${missing.join(" and ")} not found: reports with options.image as JPEG or WebP will fail (postprocess_failed); PNG needs none`,
        fix: "apt-get install libjpeg-turbo-progs webp",
      };
    },
  },
  databaseCheck,
  storageCheck,
];

/** What only Chromium needs; the rest holds for every role. */
const RENDERING = new Set([
  "image tools",
  "Chromium found",
  "Chromium sandbox",
  "Chromium prints",
  ...SCRIPTS.map((f) => f.name),
  "/dev/shm",
]);

/** Every check, in the order doctor prints them. */
export const CHECKS: Check[] = checks.map((c) => (RENDERING.has(c.name) ? forRendering(c) : c));
