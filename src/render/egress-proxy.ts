// The checking egress proxy used when the operator allow-lists public https hosts.
// PLACEHOLDER INTERFACE: implementation in progress.
import type { Logger } from "../lib/logger";

export interface EgressProxy {
  /** http://127.0.0.1:<port>, for Chromium's --proxy-server. */
  url: string;
  close(): Promise<void>;
}

export interface EgressProxyOptions {
  allowHosts: string[];
  logger: Logger;
  /** Name resolution, replaceable in tests. Returns every address of the name. */
  lookup?: (hostname: string) => Promise<string[]>;
}

export async function startEgressProxy(_opts: EgressProxyOptions): Promise<EgressProxy> {
  throw new Error("not implemented");
}
