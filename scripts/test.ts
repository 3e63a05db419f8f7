// Runs the whole test suite with `bun test` and ends with one summary line, "N passed, N failed",
// that any CI can read. Extra arguments go to `bun test` (e.g. a path filter).
export {};
const args = process.argv.slice(2);
// Real Chromium and process tests need more than bun's 5 s default per test.
const proc = Bun.spawn([process.execPath, "test", "--timeout", "60000", ...args], { stdout: "inherit", stderr: "pipe", env: process.env });
let tail = "";
const decoder = new TextDecoder();
for await (const chunk of proc.stderr) {
  const text = decoder.decode(chunk, { stream: true });
  process.stderr.write(text);
  tail = (tail + text).slice(-4000);
}
const code = await proc.exited;
const count = (word: string) => Number(new RegExp(`^\\s*(\\d+) ${word}$`, "m").exec(tail)?.[1] ?? 0);
console.log(`\ntests: ${count("pass")} passed, ${count("fail")} failed`);
process.exit(code);
