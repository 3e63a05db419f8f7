// Builds the single executable dist/reportgen with `bun build --compile` (for this machine), and is the
// one compile step scripts/release.ts runs for every target.
//
// playwright-core loads its own package.json and browsers.json with require(path.join(__dirname, ...)),
// which the compiler cannot see through: the executable would look for the BUILD machine's
// node_modules at run time. The plugin below rewrites those requires to literal paths, so the
// bundler embeds both JSON files. Migrations, the EJS library, the docs UI and the dashboard's assets
// (the editor's bundle made first, by scripts/build-editor.ts) are imported as text.

import { dirname, join } from "node:path";
import type { BunPlugin } from "bun";
import { writeEditorBundle } from "./build-editor";
import { postgresFix } from "./lib/postgres-fix";

const root = join(import.meta.dir, "..");
const playwrightRoot = dirname(Bun.resolveSync("playwright-core/package.json", root));

const staticPlaywrightRequires: BunPlugin = {
  name: "static-playwright-requires",
  setup(build) {
    build.onLoad({ filter: /[\\/]playwright-core[\\/]lib[\\/].*\.js$/ }, async ({ path }) => {
      const source = await Bun.file(path).text();
      const contents = source.replace(
        /require\(import_path\d*\.default\.join\(packageRoot, "(package|browsers)\.json"\)\)/g,
        (_m, name: string) => `require(${JSON.stringify(join(playwrightRoot, `${name}.json`))})`,
      );
      return { contents, loader: "js" };
    });
  },
};

export interface CompileOptions {
  outfile: string;
  /** A cross-compile target (e.g. "bun-linux-arm64"); this machine's when absent. */
  target?: Bun.Build.CompileTarget;
  /** The Bun runtime to embed for `target` (a verified copy, see scripts/release.ts); Bun fetches its own when absent. */
  executablePath?: string;
  /**
   * Native addon packages the executable embeds, by package name: the folder of the package built for
   * the target's architecture. @node-rs/argon2 picks its binding at run time by process.arch, so each
   * build resolves the target's package and turns the other architectures' into a module that throws.
   */
  nativePackages?: Record<string, string>;
  /** Packages that must not be embedded (another architecture's binding). */
  excludedPackages?: string[];
}

function nativeAddons(packages: Record<string, string>, excluded: string[]): BunPlugin {
  const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
  const names = [...Object.keys(packages), ...excluded];
  return {
    name: "target-native-addons",
    setup(build) {
      if (names.length === 0) return;
      build.onResolve({ filter: new RegExp(`^(${names.map(esc).join("|")})(/package\\.json)?$`) }, ({ path }) => {
        const pkgJson = path.endsWith("/package.json");
        const name = pkgJson ? path.slice(0, -"/package.json".length) : path;
        const dir = packages[name];
        if (!dir) return { path: name, namespace: "excluded-addon" };
        if (pkgJson) return { path: join(dir, "package.json") };
        const main = (require(join(dir, "package.json")) as { main: string }).main;
        return { path: join(dir, main) };
      });
      build.onLoad({ filter: /.*/, namespace: "excluded-addon" }, ({ path }) => ({
        contents: `throw new Error(${JSON.stringify(`${path} is not part of this build (another architecture)`)});`,
        loader: "js",
      }));
    },
  };
}

/** Compiles the executable; returns its size in bytes. */
export async function compile(o: CompileOptions): Promise<number> {
  // The dashboard embeds the editor's bundle, which is generated (scripts/build-editor.ts): made from
  // the sources being compiled, never an older copy left on disk.
  await writeEditorBundle();
  const result = await Bun.build({
    // The worker threads are extra entrypoints, found at run time by src/lib/runtime.ts under their
    // path relative to src/ (the sandbox child is main.ts run with a hidden argument).
    entrypoints: [
      join(root, "src/main.ts"),
      join(root, "src/render/worker.ts"),
      join(root, "src/db/checkpoint-worker.ts"),
      join(root, "src/modules/templates/schema-worker.ts"),
      join(root, "src/einvoice/validate-worker.ts"),
      join(root, "src/pdf/raster-worker.ts"),
    ],
    compile: {
      outfile: o.outfile,
      ...(o.target ? { target: o.target } : {}),
      ...(o.executablePath ? { executablePath: o.executablePath } : {}),
    },
    target: "bun",
    minify: { syntax: true, whitespace: true },
    sourcemap: "none",
    // Precompiled bytecode: JavaScriptCore does not parse the whole bundle again at every start.
    // Measured on 2 cores, built without and with it (`time dist/reportgen version`;
    // `time dist/reportgen render <fixtures>/templates/invoice.html -o x.pdf --chromium-path
    // /usr/lib/chromium/chromium-headless-shell`): 180 -> 15 ms and 1.3 -> 0.5 s; 121 -> 147 MB on disk.
    bytecode: true,
    format: "esm",
    plugins: [staticPlaywrightRequires, postgresFix, nativeAddons(o.nativePackages ?? {}, o.excludedPackages ?? [])],
  });
  if (!result.success) {
    for (const log of result.logs) console.error(log);
    throw new Error(`building ${o.outfile} failed`);
  }
  return Bun.file(o.outfile).size;
}

if (import.meta.main) {
  const outfile = process.argv[2] ?? join(root, "dist", "reportgen");
  try {
    const size = await compile({ outfile });
    console.error(`built ${outfile} (${(size / 1024 / 1024).toFixed(1)} MB)`);
  } catch (e) {
    console.error((e as Error).message);
    process.exit(1);
  }
}
