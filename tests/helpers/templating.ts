// A pool of real EJS sandbox processes for tests that drive src/render/templating.ts directly: the
// service's limits (5 s, 128 MiB) with errors-only logging; each test names what it changes.
import { ChildRegistry } from "../../src/lib/child-registry";
import { createLogger } from "../../src/lib/logger";
import { type TemplatingOptions, TemplatingPool } from "../../src/render/templating";

export function testTemplatingPool(o: Partial<TemplatingOptions> = {}): TemplatingPool {
  return new TemplatingPool({
    processes: 1,
    nice: 0,
    timeoutMs: 5_000,
    memoryBytes: 128 * 1024 * 1024,
    outputMax: 1024 * 1024,
    logger: createLogger("error"),
    registry: new ChildRegistry(),
    ...o,
  });
}
