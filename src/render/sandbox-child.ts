// Entry of an EJS sandbox process: receives render requests over IPC and answers each one.
// It is a separate process so the server can SIGKILL it when a template overruns its deadline
// inside one long native call, which no in-process interrupt can stop.
import { setPriority } from "node:os";
import { EjsSandbox } from "./ejs-sandbox";
import type { SandboxReply, SandboxRequest } from "./sandbox-protocol";

export async function runSandboxChild(): Promise<void> {
  const memory = Number(process.env.REPORTGEN_SANDBOX_MEMORY) || 128 * 1024 * 1024;
  const nice = Number(process.env.REPORTGEN_SANDBOX_NICE) || 0;
  if (nice > 0) setPriority(nice);
  const sandbox = await EjsSandbox.create(memory);
  const reply = (r: SandboxReply) => process.send!(r);
  process.on("message", (msg: SandboxRequest) => {
    let r: SandboxReply;
    try {
      r = { id: msg.id, ...sandbox.render(msg.template, msg.data, msg.timeoutMs, msg.outputMax) };
    } catch {
      // The WebAssembly module may be unusable after a trap: answer, then let the parent respawn us.
      reply({
        id: msg.id,
        ok: false,
        fatal: true,
        code: "template_error",
        message: "the EJS template broke the sandbox (it may recurse too deeply or exhaust memory)",
      });
      process.exit(1);
    }
    reply(r);
    setImmediate(() => sandbox.prepare());
  });
  process.on("disconnect", () => process.exit(0));
  sandbox.prepare();
  reply({ id: 0, ok: true, html: "ready" });
}

if (import.meta.main) await runSandboxChild();
