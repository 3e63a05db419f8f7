// The closed set of error codes: every `error` an API response can carry and every `error.code` a
// failed report can end with. The OpenAPI document (an enum on both fields), the README's tables and
// the types of AppError / RenderError all come from these two lists, so a code that is not here cannot
// be thrown. To add a code, append one line to the right list.

/** API errors: HTTP status and what the client should change. */
export const API_ERRORS = {
  invalid_json: { status: 400, fix: "The body is not valid JSON: send a JSON object with Content-Type: application/json." },
  e_invoice_unreadable: {
    status: 400,
    fix: "The e-invoice sent to /e-invoices/validate cannot be read: not XML, not UTF-8, a DOCTYPE or entities, nesting or an attribute past the limits, or a damaged PDF (the message says which). Send the invoice's XML as it was issued, or its Factur-X/ZUGFeRD PDF.",
  },
  invalid_cursor: { status: 400, fix: "Pass back the next_cursor of the previous page unchanged, or omit cursor for the first page." },
  invalid_idempotency_key: {
    status: 400,
    fix: "Idempotency-Key must be 1 to 255 printable ASCII characters without spaces: use a UUID v4.",
  },
  unauthorized: { status: 401, fix: "Send a valid, not deleted access key in X-API-Key." },
  forbidden: {
    status: 403,
    fix: "The access key lacks the scope this call needs (the message names it), or tried to grant a scope it lacks: use a key that holds it.",
  },
  link_invalid: { status: 403, fix: "The download link is wrong or expired: ask /reports/{id}/download for a fresh one." },
  not_found: { status: 404, fix: "The id does not exist or belongs to another account: check it." },
  route_not_found: { status: 404, fix: "No such method and path: see /api/v1/docs." },
  request_timeout: { status: 408, fix: "The request body arrived too slowly: send it at once, faster than the server's body timeout." },
  report_failed: {
    status: 409,
    fix: "The report failed and has no PDF: read details.code. A service fault (the message says so): submit it again later; any other: fix the template or data, submit again.",
  },
  idempotency_replay_unavailable: {
    status: 409,
    fix: "The stored answer of this Idempotency-Key can no longer be read: retry with a new key.",
  },
  sample_limit_reached: {
    status: 409,
    fix: "The template keeps at most 20 golden samples (the message names the limit): delete one (DELETE /templates/{id}/samples/{name}) or store this data under an existing sample's name.",
  },
  report_expired: { status: 410, fix: "The PDF was deleted after the retention period: submit the report again." },
  pdf_missing: {
    status: 410,
    fix: "The report succeeded, but its PDF is no longer in the service's store (lost or removed outside reportgen, before its retention ended): submit the report again, and tell the operator.",
  },
  payload_too_large: { status: 413, fix: "The body is larger than the server's body limit: send a smaller template or less data." },
  asset_too_large: {
    status: 413,
    fix: "The asset is larger than the server's --asset-max-size: send a smaller file (compress the image, subset the font).",
  },
  asset_library_full: {
    status: 413,
    fix: "The account's assets would exceed the server's --asset-account-max-size: delete assets it no longer needs, or ask the operator to raise the limit.",
  },
  e_invoice_too_large: {
    status: 413,
    fix: "The e-invoice is larger than the checker reads (10 MB of XML) or than the body limit: send a smaller document, without needless embedded attachments.",
  },
  unsupported_media_type: { status: 415, fix: "Send the body as JSON with Content-Type: application/json." },
  asset_type_unsupported: {
    status: 415,
    fix: "The file's bytes are not PNG, JPEG, WebP, SVG, WOFF2, WOFF, TTF, OTF or CSS (or do not match the declared type): upload one of those.",
  },
  validation_failed: { status: 422, fix: "A field is missing or invalid: see details (field, problem) and the OpenAPI document." },
  template_render_failed: {
    status: 422,
    fix: "The template could not be rendered with this data (details.code says why, as a failed report would): fix the template or data.",
  },
  e_invoice_invalid: {
    status: 422,
    fix: "options.e_invoice breaks an EN 16931 rule: each entry of details names the rule (e.g. BR-CO-15), the JSON path (field) and the problem; fix those values (docs/e-invoices.md lists the rules checked).",
  },
  e_invoice_unsupported: {
    status: 422,
    fix: "The document is no e-invoice the checker reads (its root is not a UBL 2.1 Invoice or CreditNote, nor a CII CrossIndustryInvoice), or the PDF embeds none (factur-x.xml, zugferd-invoice.xml, ZUGFeRD-invoice.xml, xrechnung.xml): send one of those.",
  },
  pdfa_conflict: {
    status: 422,
    fix: "options.pdfa cannot go with the option the message names (encryption; attachments or an e-invoice need pdfa 3b): drop one of them, or use 3b.",
  },
  asset_unsafe: {
    status: 422,
    fix: "The SVG holds something that could run or fetch (a script, an on* event attribute, a javascript: URL, foreignObject, an external reference): details name it; remove it and upload again.",
  },
  image_conflict: {
    status: 422,
    fix: "options.image cannot go with the option the message names (pdfa, e_invoice, signature, encryption, linearize and attachments make sense only in a PDF), or its pages run backwards: drop one of them.",
  },
  signature_conflict: {
    status: 422,
    fix: "options.signature cannot go with the option the message names (encryption or linearize rewrite the whole file after it is signed): drop one of them.",
  },
  pkcs12_too_large: { status: 422, fix: "The PKCS#12 file is larger than 2 MB: export only the signing key and its certificate chain." },
  pkcs12_unreadable: {
    status: 422,
    fix: "p12_base64 is not a PKCS#12 file reportgen can read: export the key and its chain as PKCS#12 with AES encryption (OpenSSL 3's default; legacy RC2/3DES files are refused).",
  },
  pkcs12_password_wrong: { status: 422, fix: "The password does not open the PKCS#12 file: send the password it was exported with." },
  pkcs12_no_private_key: {
    status: 422,
    fix: "The PKCS#12 file holds no private key, or no certificate for it: export the key together with its certificate.",
  },
  certificate_not_valid_now: {
    status: 422,
    fix: "The signer's certificate has expired or is not yet valid: upload a certificate that is valid now.",
  },
  signing_key_unsupported: {
    status: 422,
    fix: "The key is not RSA of 2048 bits or more, nor ECDSA on P-256 or P-384: issue a certificate for such a key.",
  },
  idempotency_key_reused: { status: 422, fix: "This Idempotency-Key was used with a different request: use a new key for a new request." },
  rate_limited: { status: 429, fix: "This key is over the operator's request limit: wait Retry-After seconds, then retry." },
  quota_exceeded: {
    status: 429,
    fix: "This key has submitted its max_reports_per_day today (UTC): wait Retry-After seconds (until the next UTC midnight), or raise the key's quota.",
  },
  account_queue_full: { status: 429, fix: "Your account has too many unfinished reports: wait Retry-After seconds for some to finish." },
  internal_error: {
    status: 500,
    fix: "The server failed unexpectedly; the cause is logged. Retry later and tell the operator if it persists.",
  },
  queue_full: { status: 503, fix: "The service has too many unfinished reports: retry after Retry-After seconds." },
  preview_unavailable: {
    status: 503,
    fix: "This instance renders nothing (--role api, or its Chromium is down): send previews and comparisons of golden samples to an instance that renders, or retry later.",
  },
  server_busy: { status: 503, fix: "The server is handling too many requests at once: retry after Retry-After seconds." },
  storage_unavailable: {
    status: 503,
    fix: "The server cannot use its disk (read-only or failing) or its PDF store (bucket); nothing was stored: retry after Retry-After seconds.",
  },
  database_unavailable: {
    status: 503,
    fix: "The server cannot reach its database right now; nothing was stored: retry after Retry-After seconds.",
  },
  storage_full: {
    status: 507,
    fix: "The server's disk is full; nothing was stored: retry after Retry-After seconds (the service resumes once space is freed).",
  },
} as const satisfies Record<string, { status: number; fix: string }>;

/** Why a report failed: whether it was the template's fault (fix it) or the service's (retry later). */
export const REPORT_FAILURES = {
  template_error: "The EJS template threw or has a syntax error: fix the template (the message names the error).",
  template_timeout: "The EJS template ran past its CPU deadline: make it do less work (smaller loops or data).",
  template_memory_exceeded: "The EJS template used more memory than allowed: render less data or build smaller strings.",
  template_output_too_large: "The EJS template produced more HTML than allowed: render less data.",
  render_timeout: "Loading and printing the page took longer than the render deadline: remove runaway page JavaScript or shrink the page.",
  render_failed: "Chromium could not print the page: simplify the HTML, or retry if the message points at the service.",
  page_closed: "The page closed itself while loading (window.close() or similar): remove that call from the template.",
  readiness_timeout:
    "options.wait_for did not hold before the render deadline (or cannot: it does not parse, or the delay is longer than the deadline): make the page ready sooner or fix the condition.",
  invalid_page_ranges: "options.page_ranges asks for pages the document does not have: ask for fewer pages.",
  paged_media_failed:
    "options.paged_media could not lay out the document (a <link> stylesheet, which it cannot read without the network, or a layout error the message names): put the CSS in <style> elements, or fix what the message names.",
  image_pages_missing: 'options.image.pages asks for pages the document does not have: ask for pages it has, or "all".',
  too_many_pages: "The PDF has more pages than allowed: render less data or split the report.",
  pdf_too_large: "The PDF is larger than allowed: use fewer or smaller images, or split the report.",
  renderer_crashed: "The renderer crashed repeatedly while printing this report (a service fault): submit it again later.",
  render_interrupted: "Rendering was interrupted repeatedly (the service stopped or restarted while printing): submit it again.",
  shutting_down: "The service was shutting down: submit the report again.",
  internal_error:
    "An unexpected internal error stopped this report; the cause is logged. Submit it again and tell the operator if it persists.",
  storage_full: "The server's disk was full each time this report was rendered (a service fault): submit it again once space is freed.",
  storage_error:
    "The server could not write to its disk (read-only or failing) or its PDF store (bucket) each time this report was rendered (a service fault): submit it again later.",
  renderer_unresponsive:
    "Chromium stopped responding while printing this report, repeatedly (a service fault, not the template's): submit it again later.",
  sandbox_crashed:
    "The EJS sandbox process died while rendering this report, repeatedly (a service fault, not the template's): submit it again later.",
  postprocess_failed:
    "The PDF post-processing tool (qpdf: watermark, stamp, attachments, encryption, linearization, merge; the rasteriser, cjpeg and cwebp: options.image) failed or overran the render deadline, repeatedly (a service fault, not the template's): submit it again later.",
  part_unavailable:
    "A report this one needs (a part of the merge, or the stamp's report) was deleted or expired before it was processed: submit it again with reports that exist.",
  passwords_unavailable:
    "The report's PDF passwords could no longer be opened (the server's secret changed after it was accepted): submit it again.",
  pdf_missing:
    "The report succeeded, but its PDF was later found missing from the service's store, before its retention ended (a service fault): submit the report again.",
  asset_not_found:
    "The template refers to an asset (asset:<name>) the account does not have: upload it (POST /api/v1/assets) or fix the name, then submit again.",
  timestamp_unavailable:
    "options.signature.timestamp asked for a timestamp, and the operator's time-stamp authority (--tsa-url) could not be reached or answered badly, repeatedly (a service fault; the PDF is never signed without it): submit it again later, or without timestamp.",
  signature_page_missing:
    "options.signature.visible.page is past the document's last page: put the visible signature on a page the document has.",
  signing_identity_unavailable:
    "The signing identity of options.signature was deleted before the report was processed: submit it again with an identity that exists.",
  renderer_unavailable:
    "No renderer was running (Chromium or the EJS sandboxes could not start): the report waits in the queue; this code is never final.",
} as const satisfies Record<string, string>;

/**
 * The failure codes that are the service's fault, not the template's: `reportgen render` exits 1 on
 * these and 2 on every other code. A new code that is the service's fault goes here too.
 */
export const SERVICE_FAULTS: readonly (keyof typeof REPORT_FAILURES)[] = [
  "renderer_crashed",
  "render_interrupted",
  "shutting_down",
  "internal_error",
  "storage_full",
  "storage_error",
  "renderer_unresponsive",
  "sandbox_crashed",
  "renderer_unavailable",
  "postprocess_failed",
  "passwords_unavailable",
  "pdf_missing",
  "timestamp_unavailable",
];

/**
 * The failure codes a report is tried again for (up to its attempts, after a backoff: the report
 * processor reads this, modules/reports/outcome.ts): a fault of the moment that another attempt may
 * not meet. It is the code's, wherever it is thrown. Never a bug (internal_error) nor the template's.
 */
export const RETRYABLE_FAILURES: readonly (keyof typeof REPORT_FAILURES)[] = [
  "renderer_crashed",
  "renderer_unresponsive",
  "sandbox_crashed",
  "render_failed",
  "renderer_unavailable",
  "shutting_down",
  "storage_full",
  "storage_error",
  "postprocess_failed",
  "timestamp_unavailable",
];

export const isServiceFault = (code: string): boolean => (SERVICE_FAULTS as readonly string[]).includes(code);
export const isRetryable = (code: string): boolean => (RETRYABLE_FAILURES as readonly string[]).includes(code);

export type ApiErrorCode = keyof typeof API_ERRORS;
export type ReportFailureCode = keyof typeof REPORT_FAILURES;

export const apiErrorCodes = Object.keys(API_ERRORS) as ApiErrorCode[];
export const reportFailureCodes = Object.keys(REPORT_FAILURES) as ReportFailureCode[];

export const isReportFailureCode = (code: string): code is ReportFailureCode => Object.hasOwn(REPORT_FAILURES, code);

/** The generic text an unexpected exception is answered with: the cause goes to the log only. */
export const INTERNAL_MESSAGE = "the server failed to handle this request; the cause has been logged. Retry later.";
