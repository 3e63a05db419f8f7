// Builds the single executable dist/reportgen with `bun build --compile`.
//
// playwright-core loads its own package.json and browsers.json with require(path.join(__dirname, ...)),
// which the compiler cannot see through: the executable would look for the BUILD machine's
// node_modules at run time. The plugin below rewrites those requires to literal paths, so the
// bundler embeds both JSON files. Migrations, the EJS library and the docs UI are imported as text.

import { dirname, join } from "node:path";
import type { BunPlugin } from "bun";

const root = join(import.meta.dir, "..");
const outfile = process.argv[2] ?? join(root, "dist", "reportgen");
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

const result = await Bun.build({
  // The worker threads are extra entrypoints, found at run time by src/lib/runtime.ts under their
  // path relative to src/ (the sandbox child is main.ts run with a hidden argument).
  entrypoints: [join(root, "src/main.ts"), join(root, "src/render/worker.ts"), join(root, "src/db/checkpoint-worker.ts")],
  compile: { outfile },
  target: "bun",
  minify: { syntax: true, whitespace: true },
  sourcemap: "none",
  plugins: [staticPlaywrightRequires],
});
if (!result.success) {
  for (const log of result.logs) console.error(log);
  process.exit(1);
}
const size = Bun.file(outfile).size;
console.error(`built ${outfile} (${(size / 1024 / 1024).toFixed(1)} MB)`);
