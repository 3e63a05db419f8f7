// Helpers of the delivery tests: create a destination over the API, and wait for a report's deliveries
// to leave pending (or to reach a condition).
import { expect } from "bun:test";
import { createHash } from "node:crypto";
import type { TestApp } from "./app";

export type Delivery = {
  destination_id: string;
  status: "pending" | "delivered" | "failed";
  attempts: number;
  target: string;
  delivered_at: string | null;
  error: string | null;
};

export const sha256 = (b: Uint8Array) => createHash("sha256").update(b).digest("hex");

export async function createDestination(t: TestApp, body: unknown): Promise<string> {
  const res = await t.request("POST", "/api/v1/destinations", { body });
  const json = (await res.json()) as { data: { id: string } };
  expect(res.status, JSON.stringify(json)).toBe(201);
  return json.data.id;
}

/** The report's deliveries once `until` holds for them (default: none pending). */
export async function waitForDeliveries(
  t: TestApp,
  reportId: string,
  until: (d: Delivery[]) => boolean = (d) => d.every((x) => x.status !== "pending"),
  timeoutMs = 30_000,
): Promise<Delivery[]> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const body = (await (await t.request("GET", `/api/v1/reports/${reportId}`)).json()) as { data: { deliveries?: Delivery[] } };
    const d = body.data.deliveries ?? [];
    if (d.length && until(d)) return d;
    if (Date.now() > end) throw new Error(`deliveries of ${reportId} did not get there in ${timeoutMs} ms: ${JSON.stringify(d)}`);
    await Bun.sleep(50);
  }
}
