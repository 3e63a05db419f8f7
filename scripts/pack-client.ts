// The TypeScript client as npm publishes it: compiled by the repository's tsc (clients/typescript/tsconfig.json:
// JavaScript and declarations into clients/typescript/dist, ignored by git), then `npm pack` of the folder.
// scripts/release.ts puts the tarball beside the executables; `bun scripts/pack-client.ts [dir]` makes one alone.
import { rmSync } from "node:fs";
import { join } from "node:path";

const root = join(import.meta.dir, "..");
export const CLIENT_DIR = join(root, "clients", "typescript");

/** Builds and packs the client into `outDir`; answers the tarball's path. */
export function packClient(outDir: string): string {
  rmSync(join(CLIENT_DIR, "dist"), { recursive: true, force: true });
  const tsc = Bun.spawnSync([join(root, "node_modules", ".bin", "tsc"), "-p", join(CLIENT_DIR, "tsconfig.json")], { stderr: "pipe" });
  if (tsc.exitCode !== 0) throw new Error(`compiling the TypeScript client failed:\n${tsc.stdout}${tsc.stderr}`);
  // --ignore-scripts: the package has none, and the repository's own `prepare` must not run for it.
  const pack = Bun.spawnSync(["npm", "pack", "--silent", "--ignore-scripts", "--pack-destination", outDir], {
    cwd: CLIENT_DIR,
    stderr: "pipe",
  });
  if (pack.exitCode !== 0) throw new Error(`npm pack of the TypeScript client failed:\n${pack.stderr}`);
  return join(outDir, pack.stdout.toString().trim().split("\n").at(-1)!);
}

if (import.meta.main) console.error(`wrote ${packClient(process.argv[2] ?? join(root, "dist"))}`);
