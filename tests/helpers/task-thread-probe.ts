// A TaskThread entry for tests/integration/task-thread.test.ts: answers, spins past any deadline, ends its
// thread, or fails, as the task asks; and says which thread it is (a number drawn once per thread).
import { serveTasks } from "../../src/lib/task-thread-worker";

export type ProbeTask = { do: "echo"; value: number } | { do: "spin" } | { do: "exit" } | { do: "throw" };

const thread = Math.random();

void serveTasks((t: ProbeTask) => {
  if (t.do === "spin") for (;;);
  if (t.do === "exit") process.exit(3);
  if (t.do === "throw") throw new Error("the probe was told to fail");
  return { value: t.value, thread };
});
