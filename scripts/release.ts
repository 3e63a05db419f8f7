// `npm run release`: the downloadable executables, dist/release/reportgen-linux-{x64,arm64}, the systemd
// units, the official clients (the TypeScript one as an npm tarball, reportgen-client-<version>.tgz, made by
// scripts/pack-client.ts; the Python one as its single module, reportgen.py), and dist/release/SHA256SUMS of
// them all (`sha256sum -c SHA256SUMS` checks a download).
//
// Cross-compiling needs two things of the other architecture, both npm packages pinned with their
// sha512 in package-lock.json (as optional dependencies of bun and @node-rs/argon2): Bun's runtime
// (@oven/bun-linux-aarch64) and argon2's native binding (@node-rs/argon2-linux-arm64-gnu). npm
// installs only this machine's, so the others are fetched here with `npm pack`, checked against the
// lock file's integrity, and unpacked under node_modules/.cache/reportgen-release. The compile itself is
// scripts/build.ts's, the same as `npm run build`.
import { createHash } from "node:crypto";
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { compile } from "./build";
import { packClient } from "./pack-client";

const root = join(import.meta.dir, "..");
const outDir = process.argv[2] ?? join(root, "dist", "release");
const cache = join(root, "node_modules", ".cache", "reportgen-release");

interface Target {
  arch: "x64" | "arm64";
  compileTarget: Bun.Build.CompileTarget;
  runtime: string;
  argon2: string;
}

const targets: Target[] = [
  { arch: "x64", compileTarget: "bun-linux-x64", runtime: "@oven/bun-linux-x64", argon2: "@node-rs/argon2-linux-x64-gnu" },
  { arch: "arm64", compileTarget: "bun-linux-arm64", runtime: "@oven/bun-linux-aarch64", argon2: "@node-rs/argon2-linux-arm64-gnu" },
];

const lock = JSON.parse(readFileSync(join(root, "package-lock.json"), "utf8")) as {
  packages: Record<string, { version: string; integrity?: string }>;
};

/** The folder of `name` at the version package-lock.json pins: the installed one, or a verified download. */
function lockedPackage(name: string): string {
  const pinned = lock.packages[`node_modules/${name}`];
  if (!pinned?.integrity) throw new Error(`${name} is not pinned in package-lock.json: run npm install`);
  const installed = join(root, "node_modules", name);
  if (
    existsSync(join(installed, "package.json")) &&
    JSON.parse(readFileSync(join(installed, "package.json"), "utf8")).version === pinned.version
  )
    return installed;
  const dir = join(cache, `${name.replace("/", "+")}-${pinned.version}`);
  if (existsSync(join(dir, "package.json"))) return dir;
  mkdirSync(cache, { recursive: true });
  const packed = Bun.spawnSync(["npm", "pack", "--silent", `${name}@${pinned.version}`, "--pack-destination", cache], {
    stderr: "inherit",
  });
  if (packed.exitCode !== 0) throw new Error(`npm pack ${name}@${pinned.version} failed`);
  const tgz = join(cache, packed.stdout.toString().trim().split("\n").at(-1) ?? "");
  const [algo, expected] = pinned.integrity.split(/-(.*)/s) as [string, string];
  const actual = createHash(algo).update(readFileSync(tgz)).digest("base64");
  if (actual !== expected) {
    rmSync(tgz, { force: true });
    throw new Error(`${basename(tgz)} does not match package-lock.json's integrity (${algo}): refusing to embed it`);
  }
  mkdirSync(dir, { recursive: true });
  const untar = Bun.spawnSync(["tar", "xzf", tgz, "-C", dir, "--strip-components=1"], { stderr: "inherit" });
  rmSync(tgz, { force: true });
  if (untar.exitCode !== 0) throw new Error(`unpacking ${name} failed`);
  return dir;
}

async function main() {
  mkdirSync(outDir, { recursive: true });
  const sums: string[] = [];
  for (const t of targets) {
    const outfile = join(outDir, `reportgen-linux-${t.arch}`);
    const t0 = performance.now();
    const runtime = lockedPackage(t.runtime);
    const runtimeVersion = JSON.parse(readFileSync(join(runtime, "package.json"), "utf8")).version;
    if (runtimeVersion !== Bun.version)
      throw new Error(`${t.runtime} is ${runtimeVersion} but this Bun is ${Bun.version}: update package-lock.json`);
    const size = await compile({
      outfile,
      target: t.compileTarget,
      executablePath: t.arch === process.arch ? undefined : join(runtime, "bin", "bun"),
      nativePackages: { [t.argon2]: lockedPackage(t.argon2) },
      excludedPackages: targets.filter((o) => o !== t).map((o) => o.argon2),
    });
    const sha = createHash("sha256").update(readFileSync(outfile)).digest("hex");
    sums.push(`${sha}  ${basename(outfile)}`);
    console.error(`built ${outfile} (${(size / 1024 / 1024).toFixed(1)} MB) in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  }
  // The systemd unit of this version goes with the executables, so an install needs nothing from the repository.
  for (const unit of ["reportgen.service", "reportgen@.service"]) {
    const file = join(outDir, unit);
    copyFileSync(join(root, "deploy", unit), file);
    sums.push(`${createHash("sha256").update(readFileSync(file)).digest("hex")}  ${unit}`);
  }
  // The clients of this version's API go with it too (docs/clients.md says how to install them).
  const clients = [packClient(outDir), join(outDir, "reportgen.py")];
  copyFileSync(join(root, "clients", "python", "reportgen.py"), clients[1]!);
  for (const file of clients) sums.push(`${createHash("sha256").update(readFileSync(file)).digest("hex")}  ${basename(file)}`);
  writeFileSync(join(outDir, "SHA256SUMS"), `${sums.join("\n")}\n`);
  console.error(`wrote ${join(outDir, "SHA256SUMS")}`);
}

try {
  await main();
} catch (e) {
  console.error(`release: ${(e as Error).message}`);
  process.exit(1);
}
