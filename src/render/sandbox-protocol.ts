// Messages between the server and an EJS sandbox process. The child is treated as untrusted:
// its replies are checked against these schemas before use.
import { type Static, Type } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import { isRetryable, isServiceFault } from "../lib/error-codes";

export const SandboxRequest = Type.Object({
  id: Type.Number(),
  template: Type.String(),
  /** The client's data, as JSON text: it is parsed inside the sandbox, never as live objects. */
  data: Type.String(),
  timeoutMs: Type.Number(),
  outputMax: Type.Number(),
});
export type SandboxRequest = Static<typeof SandboxRequest>;

export const SandboxReply = Type.Union([
  Type.Object({ id: Type.Number(), ok: Type.Literal(true), html: Type.String() }),
  Type.Object({
    id: Type.Number(),
    ok: Type.Literal(false),
    code: Type.String(),
    message: Type.String(),
    fatal: Type.Optional(Type.Boolean()),
  }),
]);
export type SandboxReply = Static<typeof SandboxReply>;

export const isSandboxReply = (v: unknown): v is SandboxReply => Value.Check(SandboxReply, v);

/**
 * The code of a child's failure reply as the server takes it. The child names only the template's
 * faults: a code of the service's from it (one that would be retried, or re-queued without end) is a
 * broken or subverted child, answered as internal_error.
 */
export const childFailureCode = (code: string): string => (isServiceFault(code) || isRetryable(code) ? "internal_error" : code);

/** The argument that makes the executable act as a sandbox child instead of the CLI. */
export const SANDBOX_CHILD_ARG = "__reportgen-sandbox-child";
