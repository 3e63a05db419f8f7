// reportgen's official TypeScript client: `createClient({ baseUrl, apiKey })`, then reports, templates,
// assets, keys and eInvoices. Its types come from the server's OpenAPI document (src/schema.ts, generated);
// `request` reaches any operation of it by path and method.
import { type ClientOptions, Transport } from "./http.js";
import { reports } from "./reports.js";
import { assets, eInvoices, keys, templates } from "./resources.js";

export { ERROR_CODES, type ErrorCode, type FieldProblem, ReportgenError } from "./errors.js";
export type { Answer, ClientOptions, JsonBody, Method, Op, RequestOptions } from "./http.js";
export type { DownloadLink, GenerateRequest, MergeRequest, Queued, Report, WaitOptions } from "./reports.js";
export { ReportgenTimeoutError } from "./reports.js";
export type { EInvoiceRuleSet, KeyCreate, KeyRotate, KeyUpdate, TemplateCreate, TemplateVersionCreate } from "./resources.js";
export type { components, operations, paths } from "./schema.js";

export function createClient(options: ClientOptions) {
  const http = new Transport(options);
  return {
    reports: reports(http),
    templates: templates(http),
    assets: assets(http),
    keys: keys(http),
    eInvoices: eInvoices(http),
    /** Any operation of the document by path and method, typed: `request("get", "/api/v1/usage", { query: {…} })`. */
    request: http.request.bind(http),
  };
}

export type ReportgenClient = ReturnType<typeof createClient>;
