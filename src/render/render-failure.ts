// Who is to blame for a failed render: the service (Chromium or its renderer gone or frozen: an
// infrastructure code, retried) or the template (its own code). Used by the Chromium host once a render
// failed, and by the pool when a whole worker goes down.
import { RenderError } from "../lib/errors";

/** Messages of the infrastructure codes: the service's fault, never the template's. */
export const INFRA_MESSAGES = {
  renderer_crashed: "Chromium stopped while printing this report; this is a fault of the service, not of the template",
  page_crashed:
    "the Chromium renderer process printing this report crashed; this is a fault of the service (or a page that exhausted Chromium's memory), not a template error",
  renderer_unresponsive: "Chromium stopped responding while printing this report; this is a fault of the service, not of the template",
} as const;

/** What a failed render ran into, as seen once it failed. */
export interface FailureContext {
  /** Chromium's connection is gone (killed, crashed, exited). */
  browserGone: boolean;
  /** The page's renderer process crashed. */
  pageCrashed: boolean;
  pageClosed: boolean;
  /** For a render_timeout: whether Chromium answered a probe right after (false: it is frozen). */
  browserResponsive?: boolean;
}

/**
 * Decides who is to blame for a failed render. Infrastructure faults (Chromium or its renderer
 * gone or frozen) get codes that are retried (RETRYABLE_FAILURES) and say so; the template's own faults keep their codes. Checked in
 * this order because once Chromium is gone every page also reads as closed.
 */
export function classifyRenderFailure(error: unknown, c: FailureContext): RenderError {
  if (c.browserGone) return new RenderError("renderer_crashed", INFRA_MESSAGES.renderer_crashed);
  if (c.pageCrashed) return new RenderError("renderer_crashed", INFRA_MESSAGES.page_crashed);
  if (error instanceof RenderError) {
    if (error.code === "render_timeout" && c.browserResponsive === false)
      return new RenderError("renderer_unresponsive", INFRA_MESSAGES.renderer_unresponsive);
    return error;
  }
  if (c.pageClosed)
    return new RenderError(
      "page_closed",
      "the page closed itself while loading (window.close() or similar); remove that call from the template",
    );
  return new RenderError(
    "render_failed",
    `Chromium failed to print the page: ${cleanDriverMessage((error as Error)?.message ?? String(error))}`,
  );
}

/** Playwright's error text without terminal colours and its call log: what a client can be shown. */
export function cleanDriverMessage(message: string): string {
  return message
    .replace(/\u001b\[[0-9;]*m/g, "")
    .split(/\n\s*Call log:/)[0]!
    .split("\n")[0]!
    .trim()
    .slice(0, 300);
}
