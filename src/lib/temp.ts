// Chromium's temp folders live under the data dir (<data-dir>/chromium-tmp/worker-*), not in /tmp:
// what a killed Chromium leaves there (its profile and artifacts folders) is provably this
// service's, and start-up removes it. Other programs' folders in /tmp are never touched.
// One exception: Chromium's singleton socket must have a path under 108 bytes, so with a long data dir
// Chromium keeps its own TMPDIR in the system's; the socket's folder there is found through the
// profile's SingletonSocket link and removed with the worker's folder.
import { mkdirSync, readdirSync, readlinkSync, rmSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { findProcesses } from "./process-tree";

/** The folder holding the render workers' temp folders. */
export function browserTempRoot(dataDir: string): string {
  return join(dataDir, "chromium-tmp");
}

/**
 * Removes the worker folders earlier runs left behind, except one whose Chromium still runs (a
 * second server on the same data dir). Returns how many were removed.
 */
export function removeStaleBrowserTemp(root: string): number {
  mkdirSync(root, { recursive: true, mode: 0o700 });
  let removed = 0;
  for (const name of readdirSync(root)) {
    const path = join(root, name);
    if (findProcesses(path).length > 0) continue;
    removeWorkerTemp(path);
    removed++;
  }
  return removed;
}

/** Longest temp folder Chromium can use: its singleton socket "<dir>/org.chromium.Chromium.XXXXXX/SingletonSocket" must fit in 107 bytes. */
const MAX_CHROMIUM_TMP = 107 - "/org.chromium.Chromium.XXXXXX/SingletonSocket".length;

/** The TMPDIR to give Chromium itself: the worker's folder when its socket path fits, else `fallback`. */
export function chromiumTmpDir(workerDir: string, fallback: string): string {
  return Buffer.byteLength(workerDir) <= MAX_CHROMIUM_TMP ? workerDir : fallback;
}

/** Removes one worker's temp folder, with the singleton-socket folder its Chromium made elsewhere. */
export function removeWorkerTemp(workerDir: string): void {
  let profiles: string[] = [];
  try {
    profiles = readdirSync(workerDir).filter((n) => n.startsWith("playwright_chromiumdev_profile-"));
  } catch {
    return;
  }
  for (const p of profiles) {
    try {
      const socketDir = dirname(readlinkSync(join(workerDir, p, "SingletonSocket")));
      if (basename(socketDir).startsWith("org.chromium.Chromium.")) rmSync(socketDir, { recursive: true, force: true });
    } catch {
      // No socket link: Chromium never got that far, or closed cleanly.
    }
  }
  rmSync(workerDir, { recursive: true, force: true });
}
