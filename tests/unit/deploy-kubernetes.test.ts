// deploy/kubernetes.yaml, the example Deployment, checked for its shape (no cluster here to apply it
// to: kubectl's dry run needs an API server): probes on /readyz and /livez, settings from a Secret,
// a rollout that takes out one instance at a time, and a grace period that covers the drain and the
// shutdown timeout it sets, which loadConfig accepts. The systemd units' stop timeout is held to the same.
import { expect, test } from "bun:test";
import { join } from "node:path";
import { loadConfig } from "../../src/config/load";
import { settings } from "../../src/config/settings";

const deploy = join(import.meta.dir, "..", "..", "deploy");
const manifest = Bun.YAML.parse(await Bun.file(join(deploy, "kubernetes.yaml")).text()) as any;
const pod = manifest.spec.template.spec;
const container = pod.containers[0];
const env = Object.fromEntries((container.env as { name: string; value: string }[]).map((e) => [e.name, e.value]));

test("a Deployment whose selector picks its own pods, replaced one at a time", () => {
  expect(manifest.apiVersion).toBe("apps/v1");
  expect(manifest.kind).toBe("Deployment");
  expect(manifest.spec.replicas).toBeGreaterThanOrEqual(2);
  expect(manifest.spec.template.metadata.labels).toMatchObject(manifest.spec.selector.matchLabels);
  expect(manifest.spec.strategy).toEqual({ type: "RollingUpdate", rollingUpdate: { maxUnavailable: 0, maxSurge: 1 } });
  expect(pod.containers).toHaveLength(1);
  expect(container.args.slice(0, 1)).toEqual(["serve"]);
});

test("readiness on /readyz, liveness on /livez, on the port the server listens on", () => {
  const port = container.ports.find((p: { name: string }) => p.name === container.readinessProbe.httpGet.port);
  expect(port.containerPort).toBe(Number(env.REPORTGEN_PORT));
  expect(container.readinessProbe.httpGet.path).toBe("/readyz");
  expect(container.livenessProbe.httpGet.path).toBe("/livez");
  expect(container.livenessProbe.httpGet.port).toBe(container.readinessProbe.httpGet.port);
  // Taken out of the Service within a probe period of SIGTERM, well inside the drain period.
  const drainMs = loadConfig({}, env).drainPeriod;
  expect(container.readinessProbe.periodSeconds * container.readinessProbe.failureThreshold * 1000).toBeLessThan(drainMs);
});

test("the settings come from a Secret; every variable set inline is a setting reportgen reads", () => {
  expect(container.envFrom).toEqual([{ secretRef: { name: "reportgen-cluster" } }]);
  const known = new Set(Object.values(settings).map((s) => s.env));
  for (const name of Object.keys(env)) expect(known.has(name)).toBe(true);
  // Nothing secret inline.
  for (const name of Object.keys(env)) expect(name).not.toMatch(/SECRET|PASSWORD|DATABASE_URL|AWS_/);
});

test("terminationGracePeriodSeconds covers the drain period and the shutdown timeout it sets", () => {
  const c = loadConfig({}, env);
  expect(c.drainPeriod).toBe(5000);
  expect(c.shutdownTimeout).toBe(30_000);
  expect(pod.terminationGracePeriodSeconds * 1000).toBeGreaterThanOrEqual(c.drainPeriod + c.shutdownTimeout + 5000);
});

test("the systemd units wait as long before killing: TimeoutStopSec covers the default drain and shutdown timeout", () => {
  const need = (settings.drainPeriod.default + settings.shutdownTimeout.default) / 1000 + 5;
  for (const unit of ["reportgen.service", "reportgen@.service"]) {
    const text = require("node:fs").readFileSync(join(deploy, unit), "utf8") as string;
    const stop = Number(/^TimeoutStopSec=(\d+)$/m.exec(text)?.[1]);
    expect(stop).toBeGreaterThanOrEqual(need);
  }
});
