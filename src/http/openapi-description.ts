// The part of the API description that records the decisions the interface specification leaves open.
import type { ScopeList } from "../access/scopes";
import { API_ERRORS, REPORT_FAILURES } from "../lib/error-codes";

/** The API description; `scopes` is the closed list of scopes (app/modules.ts joins it from the modules). */
export const apiDescription = (scopes: ScopeList) => `
Self-hosted HTML/EJS to PDF reports. Every \`/api/v1\` endpoint needs the \`X-API-Key\` header, except this
documentation (\`/api/v1/docs\`, \`/api/v1/openapi.json\`). Without a valid key: **401** \`{"error":"unauthorized"}\`,
checked before anything else (validation, 404).

## Flow
1. \`POST /api/v1/generate-pdf-async\` → **202** \`{"report_id": "<uuid>"}\` once the report is durably queued.
2. \`GET /api/v1/reports/{reportID}\` → status: \`queued\` → \`processing\` → \`succeeded\` | \`failed\`; later \`expired\`.
3. \`GET /api/v1/reports/{reportID}/download\` → **200** \`{"data": "<signed link>", "expires_at": ...}\` when ready;
   **202** \`{"status": "queued"|"processing", ...}\` with \`Retry-After\` while not ready; **409** \`report_failed\` with the reason;
   **410** \`report_expired\` after the retention period (\`pdf_missing\` if its PDF went missing from the store before then). Add \`?wait=30\` to wait (long poll) until the report is
   finished instead of polling; the status endpoint takes \`wait\` too.
4. \`GET <link>\` (no key) → the PDF. Links are HMAC-signed and expire (default 1 hour); a bad or expired link → **403** \`link_invalid\`.

After the print, \`options\` may watermark, stamp, attach files to, encrypt (AES-256) and linearize the PDF (qpdf);
\`POST /api/v1/reports/merge\` joins succeeded reports into a new one that follows the same flow.

## Access keys: scopes, expiry, rotation, quotas
Each key holds **scopes**; a call outside them is **403** \`{"error":"forbidden","message":"...names the missing scope..."}\`:

| scope | allows |
|---|---|
${Object.entries(scopes.descriptions)
  .map(([scope, what]) => `| \`${scope}\` | ${what} |`)
  .join("\n")}

\`POST /api/v1/access-keys\` takes \`scopes\` (default: exactly the creating key's; never more: **403**), \`expires_at\`
(RFC 3339; from that second on the key is refused with the plain **401**, and its dashboard sessions end) and
\`max_reports_per_day\` (per UTC day; beyond it **429** \`quota_exceeded\` with \`Retry-After\` = seconds to the next UTC
midnight). \`POST /api/v1/access-keys/{id}/rotate\` with \`{"grace_seconds": N}\` (0 to 604800) gives the key a new value;
the old one works for N more seconds. \`GET /api/v1/audit-events\` lists who did what to keys and secrets.

## Status codes
201 key created · 202 report queued / not ready · 200 everything else that succeeds, including deletes
(\`{"data": {"deleted": true, ...}}\`).

## Errors
Every error is JSON: \`{"error": "<stable code>", "message": "<what is wrong and how to fix it>"}\`, with
\`details\` (a list of \`{field, problem}\`) for \`validation_failed\`. The codes are a closed list:

| status | error | what to change |
|---|---|---|
${Object.entries(API_ERRORS)
  .map(([code, e]) => `| ${e.status} | \`${code}\` | ${e.fix} |`)
  .join("\n")}

**429 and 503** carry \`Retry-After\` (seconds): wait that long, then retry the same request; do not retry sooner.

A failed report's \`error.code\` is one of:

| code | what to change |
|---|---|
${Object.entries(REPORT_FAILURES)
  .map(([code, fix]) => `| \`${code}\` | ${fix} |`)
  .join("\n")}

## Lists
\`GET /api/v1/reports?limit=20&cursor=...&status=succeeded\` → \`{"data": [report...], "next_cursor": "..." | null}\`,
newest first. \`GET /api/v1/access-keys\` → \`{"data": [{"id","name","scopes","created_at","expires_at","last_used_at","max_reports_per_day","rotated_at"}]}\`.
\`GET /api/v1/audit-events?limit=50&cursor=...\` pages the same way.

## Limits (defaults; the operator can change each)
Request body 10 MB (413; a chunked report's, \`options.chunk\`, 64 MB) · \`html_template\` 5 MB · \`data\` 5 MB as JSON, 32 levels deep, 200 000 keys and items ·
no per-key request limit (an operator may set separate submission and read limits) · 5 000 unfinished reports per
account · 20 000 in all · request bodies must arrive within 60 s · EJS: 5 s CPU, 128 MB memory, 20 MB output ·
page load and print: 30 s · 2 000 pages · 200 MB per PDF · PDFs kept 7 days.

## Rendering
A4 with backgrounds and no margins unless \`options\` says otherwise; CSS \`@page\` size wins. The page
can load nothing from the network (no http(s), no \`file://\`) unless the operator allow-lists public https hosts.
EJS runs in a QuickJS sandbox without access to the host; \`include()\` is not available.
`;
