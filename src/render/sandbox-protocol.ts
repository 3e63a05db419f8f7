// Messages between the server and an EJS sandbox process. The child is treated as untrusted:
// its replies are checked against these schemas before use.
import { type Static, Type } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";

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

/** The argument that makes the executable act as a sandbox child instead of the CLI. */
export const SANDBOX_CHILD_ARG = "__reportgen-sandbox-child";
