// The operator's time-stamp authority (--tsa-url): one RFC 3161 request per signature, sent through
// the outbound policy of webhooks (public https, unless --tsa-allow-hosts lists the host; every
// resolved address checked; no redirects). Any failure is the service's: the report is retried, then
// fails with timestamp_unavailable. A signature is never made without the timestamp it asked for.
import { RenderError } from "../../lib/errors";
import type { Logger } from "../../lib/logger";
import { postChecked } from "../webhooks/target";

export interface TsaOptions {
  url: string;
  allowHosts: readonly string[];
  timeoutMs: number;
  logger: Logger;
  /** Name resolution, replaceable in tests. */
  lookup?: (hostname: string) => Promise<string[]>;
}

/** A TSA answer is a token with the TSA's certificates: far below this. */
const MAX_ANSWER = 256 * 1024;

export function tsaClient(o: TsaOptions): (imprint: Uint8Array) => Promise<Uint8Array> {
  return async (imprint) => {
    // pkijs and asn1js load with the first timestamp (or signing identity), not at start.
    const { timestampRequest, timestampToken } = await import("../../pdf/signature/timestamp");
    const { der, nonce } = timestampRequest(imprint);
    const r = await postChecked(o.url, { accept: "application/timestamp-reply" }, der, {
      allowHosts: o.allowHosts,
      allowSetting: "--tsa-allow-hosts",
      field: "--tsa-url",
      timeoutMs: o.timeoutMs,
      readBody: MAX_ANSWER,
      contentType: "application/timestamp-query",
      userAgent: "reportgen-tsa",
      lookup: o.lookup,
    });
    const fail = (why: string): never => {
      o.logger.warn("time-stamp authority failed", { url: o.url, error: why });
      throw new RenderError("timestamp_unavailable", `the time-stamp authority could not give a timestamp: ${why}`);
    };
    if (r.error || r.refused) return fail(r.error ?? "refused by the outbound policy");
    if (r.status !== 200) return fail(`it answered HTTP ${r.status}`);
    try {
      return timestampToken(new Uint8Array(r.body ?? []), imprint, nonce);
    } catch (e) {
      return fail((e as Error).message);
    }
  };
}
