// A schedule's data_url: fetched as JSON when a run starts, through the webhooks' outbound policy (public
// https only, unless the operator allow-listed the host with --webhook-allow-hosts; every resolved address
// checked, the connection made to the checked one, no redirects), at most the data size limit. Every
// failure is a sentence the run's history shows.
import { postChecked, type TargetPolicy } from "../webhooks/target";

export interface DataUrlOptions extends TargetPolicy {
  /** Largest answer, bytes (--data-max-size, the same limit as a request's data). */
  maxBytes: number;
  timeoutMs: number;
  signal?: AbortSignal;
}

export class DataUrlError extends Error {}

/** The JSON object at `url`; throws DataUrlError saying what went wrong and what to change. */
export async function fetchData(url: string, o: DataUrlOptions): Promise<Record<string, unknown>> {
  const r = await postChecked(url, { accept: "application/json" }, "", {
    ...o,
    field: "data_url",
    method: "GET",
    readBody: o.maxBytes,
    userAgent: "reportgen-schedules",
  });
  if (r.refused) throw new DataUrlError(`data_url was refused by the outbound policy: ${r.error}`);
  if (r.error) throw new DataUrlError(`data_url could not be fetched: ${r.error}`);
  if (r.status === undefined || r.status < 200 || r.status > 299)
    throw new DataUrlError(`data_url answered HTTP ${r.status}; it must answer 200 with a JSON object (redirects are not followed)`);
  let data: unknown;
  try {
    data = JSON.parse((r.body ?? Buffer.alloc(0)).toString("utf8"));
  } catch {
    throw new DataUrlError("data_url did not answer JSON: it must answer a JSON object (the template's data)");
  }
  if (typeof data !== "object" || data === null || Array.isArray(data))
    throw new DataUrlError("data_url answered JSON that is not an object: the template's data must be a JSON object");
  return data as Record<string, unknown>;
}
