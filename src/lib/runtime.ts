// Where this code runs from: the compiled executable or source files.

/** True inside `bun build --compile` output, where modules live under /$bunfs/root. */
export const isCompiled = import.meta.url.includes("/$bunfs/");

/**
 * The URL of an extra entrypoint given relative to src/ (e.g. "render/worker.ts"). In the
 * executable every module's import.meta.url is the executable's own, and entrypoints keep their
 * path relative to the common root of the build (src/).
 */
export function entrypointUrl(fromSrc: string): URL {
  return isCompiled ? new URL(`./${fromSrc}`, import.meta.url) : new URL(`../${fromSrc}`, import.meta.url);
}
