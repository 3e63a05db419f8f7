// Every path of the reportgen API: its parameters, bodies and answers.
// Generated from /api/v1/openapi.json by `bun scripts/gen-client-types.ts`: change the server, then run it again; do not edit.

export interface paths {
  "/healthz": {
    /**
     * Health
     * @description 200 when the renderer is ready, 503 while Chromium is (re)starting.
     */
    get: operations["getHealth"];
  };
  "/livez": {
    /**
     * Liveness
     * @description 200 whenever the process answers HTTP. Restart the service only when this fails.
     */
    get: operations["getLiveness"];
  };
  "/readyz": {
    /**
     * Readiness
     * @description 200 when reports can be taken and rendered: a renderer is ready, the database commits a write, and the data dir has room above --min-free-space. 503 (with the failing check) otherwise, and `draining` from SIGTERM on (the instance still serves for --drain-period: take it out of the load balancer).
     */
    get: operations["getReadiness"];
  };
  "/metrics": {
    /**
     * Prometheus metrics
     * @description Text exposition format. Open unless --metrics-token is set (then `Authorization: Bearer <token>`).
     */
    get: operations["getMetrics"];
  };
  "/files/{reportID}/e-invoice": {
    /**
     * Download an e-invoice's XML through a signed link
     * @description The link comes from GET /api/v1/reports/{reportID}/e-invoice. Invalid, tampered (a PDF link included), expired or deleted-report links all get the same 403 `link_invalid`.
     */
    get: operations["downloadEInvoiceFile"];
  };
  "/files/{reportID}": {
    /**
     * Download a PDF through a signed link
     * @description The link comes from GET /api/v1/reports/{reportID}/download. Invalid, tampered, expired or deleted-report links all get the same 403 `link_invalid`. A valid link to a report whose PDF went missing from the store before its retention ended gets 410 `pdf_missing` (the report then carries that error too).
     */
    get: operations["downloadFile"];
  };
  "/api/v1/generate-pdf-async": {
    /**
     * Queue a PDF
     * @description Answers 202 with `report_id` as soon as the report is durably queued. Poll `GET /reports/{reportID}` or `GET /reports/{reportID}/download`. With engine `ejs`, EJS runs in a sandbox (no host access) with the given `data`; EJS options are never taken from `data`. With engine `raw`, the HTML is printed as given and `data` is ignored. Instead of `html_template` and `engine`, `template_id` (and optionally `template_version`, default the latest) renders a stored template: `data` is checked against its `data_schema` before anything is queued (422 validation_failed naming every failing path), its `options` are defaults that the request's override field by field, and the report records `template_id` and `template_version`. Exactly one form per request (422 otherwise); an unknown template or version, or another account's, is 404. With `webhook.url`, a signed event is POSTed there when the report succeeds or fails (see Webhooks above). With an `Idempotency-Key` header, a retry within 24 hours returns the same `report_id` instead of queueing a second report.
     */
    post: operations["generatePdfAsync"];
  };
  "/api/v1/reports/merge": {
    /**
     * Merge reports into one PDF
     * @description Queues a new report whose PDF is the given reports' PDFs one after the other (its page count is their sum, plus the pages of a table of contents), with one bookmark per part (the part's PDF title, else `Report <id>`), and `options` (toc, page_numbers, watermark, stamp, attachments, encryption, linearize, pdfa) applied to the result. The new report follows the same flow as a generated one: status, long polling, download link and `webhook`; it shows engine `raw`. Every part must be a succeeded, unencrypted report of this account: an unknown id or another account's is 404, one not yet succeeded (or expired, or encrypted) is 422 naming it.
     */
    post: operations["mergeReports"];
  };
  "/api/v1/reports": {
    /**
     * List the account's reports
     * @description Newest first, `limit` per page (default 20, at most 100), optionally only one `status`. Reports of other accounts are never listed.
     */
    get: operations["listReports"];
  };
  "/api/v1/reports/{reportID}": {
    /**
     * A report's status
     * @description Status is one of queued, processing, succeeded, failed (with `error`), expired (PDF deleted after the retention period). With `wait`, answers as soon as the report is finished (long polling). For a report submitted with a webhook, `webhook` shows its URL and every delivery attempt with its outcome (absent otherwise, and in the list). For a report submitted with options.deliver, `deliveries` shows each destination's status (pending, delivered, failed), attempts, target, delivered_at and last error.
     */
    get: operations["getReport"];
    /**
     * Delete a report
     * @description Removes the record and the PDF; existing download links stop working. A report still rendering is cancelled and its PDF never appears.
     */
    delete: operations["deleteReport"];
  };
  "/api/v1/reports/{reportID}/download": {
    /**
     * A download link for the PDF
     * @description 200 with `data` (the link) when ready. 202 with `status` and a `Retry-After` header while queued or processing (with `wait`, only after waiting that long). 409 `report_failed` with the reason when rendering failed. 410 `report_expired` after the retention period; 410 `pdf_missing` when a succeeded report's PDF is missing from the store before then (the report then carries that error too).
     */
    get: operations["downloadReport"];
  };
  "/api/v1/reports/{reportID}/e-invoice": {
    /**
     * A download link for the e-invoice XML
     * @description For a report with options.e_invoice: answers like /download, with a link that serves the XML (application/xml, named after the invoice number): the XRechnung, Peppol or UBL XML, or for Factur-X the XML embedded in the PDF. 404 for a report without an e-invoice.
     */
    get: operations["getReportEInvoice"];
  };
  "/api/v1/reports/{reportID}/thumbnail": {
    /**
     * A thumbnail of the report's page 1
     * @description A PNG at most 320 px wide and 40 KB, for a succeeded report (a PDF or pictures). Made on the first request and kept with the report until it is deleted. 202 while queued or processing; the download's 409 and 410 otherwise. See docs/images.md.
     */
    get: operations["getReportThumbnail"];
  };
  "/api/v1/templates": {
    /**
     * List the account's templates
     * @description Newest first, `limit` per page (default 20, at most 100).
     */
    get: operations["listTemplates"];
    /**
     * Store a template
     * @description Creates a template with its version 1 and answers 201 with `template_id`, `version` and the preflight's `warnings`: characters no installed font has (missing_glyphs), resources the network policy refuses (blocked_resource), and the page count and size of `sample_data` rendered through the same sandbox and Chromium as a report (sample_render, or sample_render_failed). Warnings never refuse a save. `data_schema` (JSON Schema draft 2020-12; `pattern` in RE2 syntax, without backreferences or lookaround) is checked itself and `sample_data` against it, each within the server's --schema-timeout (2 s by default): 422 validation_failed otherwise, naming the place. `options` are the defaults of generation requests by this template (not `encryption`: its passwords are never stored). With an `Idempotency-Key` header, a retry within 24 hours returns the same template instead of creating a second one.
     */
    post: operations["createTemplate"];
  };
  "/api/v1/templates/{templateID}/versions": {
    /**
     * Save a new version
     * @description Versions are immutable: every save adds the next number (n+1) with its own html_template, data_schema, sample_data and options (nothing is inherited from the previous version), checked and preflighted as on creation. Generation requests without `template_version` use it from now on, unless the template has require_approval: then only once its comparison is `same` on every golden sample, or it is approved (POST …/versions/{v}/approve). With golden samples the save waits for their comparison (two renders a sample) and answers it in `comparison`.
     */
    post: operations["createTemplateVersion"];
  };
  "/api/v1/templates/{templateID}": {
    /**
     * A template
     * @description The template with its latest version in full and the list of its versions.
     */
    get: operations["getTemplate"];
    /**
     * Delete a template
     * @description Deletes the template and all its versions; generation requests naming it get 404 from now on. Reports already made from it, queued ones included, keep their PDFs and still show its template_id and template_version.
     */
    delete: operations["deleteTemplate"];
    /**
     * Change a template's settings
     * @description `require_approval`: on, a new version whose comparison with the golden samples is `changed` becomes the default only once approved (the default stays the version in use when it was turned on); off, the latest version is the default again. The audit trail records it.
     */
    patch: operations["updateTemplate"];
  };
  "/api/v1/templates/{templateID}/versions/{version}": {
    /**
     * One version of a template
     * @description Exactly as it was saved, with the warnings of its preflight.
     */
    get: operations["getTemplateVersion"];
  };
  "/api/v1/templates/{templateID}/samples": {
    /**
     * A template's golden samples
     * @description Its named sample data sets, by name, with their data.
     */
    get: operations["listTemplateSamples"];
    /**
     * Save a golden sample
     * @description Stores `data` as a named sample of the template: every new version is compared with the default one on every sample. 201 for a new name, 200 when it replaced the sample of that name. A template keeps at most 20: a 21st name is 409 sample_limit_reached (details.limit).
     */
    post: operations["saveTemplateSample"];
  };
  "/api/v1/templates/{templateID}/samples/{name}": {
    /**
     * Delete a golden sample
     * @description 404 for an unknown name or another account's template.
     */
    delete: operations["deleteTemplateSample"];
  };
  "/api/v1/templates/{templateID}/versions/{version}/compare": {
    /**
     * The last comparison of a version
     * @description As its save or POST …/compare answered it; 404 when it was never compared.
     */
    get: operations["getTemplateComparison"];
    /**
     * Compare a version with another on the golden samples
     * @description Renders every sample of the template with the version and with `base` (default: the template's default version), through the same sandbox and Chromium as reports, and compares them page by page on pictures drawn at 96 dpi: `changed_ratio` is the share of a page's pixels whose colour differs by more than --golden-tolerance (0.1 of 255 by default, above anti-aliasing noise); a page added or removed is changed (ratio 1). Changed pages link a diff PNG (the new page faded, its changed pixels in red) and the two pages. Synchronous: each sample costs two renders (about a second) while the request waits, at most 20 samples. 503 preview_unavailable on an instance that renders nothing. Saving a version runs the same comparison.
     */
    post: operations["compareTemplateVersion"];
  };
  "/api/v1/templates/{templateID}/versions/{version}/approve": {
    /**
     * Approve a version
     * @description Makes the version the template's default_version while require_approval is on (generation requests without template_version render it), whatever its comparison found; the audit trail records it (template.version_approved).
     */
    post: operations["approveTemplateVersion"];
  };
  "/api/v1/templates/{templateID}/pictures/{picture}": {
    /**
     * A picture of a comparison
     * @description A PNG a comparison links (diff, before, after); named by its sha256, so it never changes.
     */
    get: operations["getComparisonPicture"];
  };
  "/api/v1/assets": {
    /**
     * List the account's assets
     * @description Newest first, `limit` per page (default 20, at most 100).
     */
    get: operations["listAssets"];
    /**
     * Upload an asset
     * @description Stores a logo, font or style sheet for the account's templates, which use it as `asset:<name>` in `src`/`href` attributes, CSS `url()`, `@font-face` and `@import`, in the page and in header_template/footer_template. Send JSON `{name, content_base64, type?}` or multipart/form-data with a `file` part (and an optional `name` field). Its type is read from its bytes: PNG, JPEG, WebP, SVG, WOFF2, WOFF, TTF, OTF, or CSS (text declared text/css or named *.css); anything else, or bytes that disagree with the declared type, is 415 asset_type_unsupported. An SVG with a script, an on* event attribute, a javascript: URL, foreignObject, entities or a reference outside the file is refused (422 asset_unsafe, naming the element), never rewritten. Over --asset-max-size: 413 asset_too_large; over the account's --asset-account-max-size: 413 asset_library_full. Uploading a name that exists replaces its bytes (200, same id, `replaced: true`): reports print with the bytes the name has when they render, so a report still queued uses the new ones, and PDFs already made stay as they are.
     */
    post: operations["createAsset"];
  };
  "/api/v1/assets/{assetID}": {
    /**
     * An asset
     * @description Its name, type, size, sha256 and dates; another account's asset is 404.
     */
    get: operations["getAsset"];
    /**
     * Delete an asset
     * @description Removes the asset and its bytes. Reports already made keep their PDFs; a report still queued that uses it fails with asset_not_found.
     */
    delete: operations["deleteAsset"];
  };
  "/api/v1/assets/{assetID}/content": {
    /**
     * Download an asset
     * @description The stored bytes, with the asset's media type, as an attachment.
     */
    get: operations["getAssetContent"];
  };
  "/api/v1/access-keys": {
    /**
     * List the account's access keys
     * @description Newest first, with each key's scopes, expiry, quota and last use. Never includes key values or hashes.
     */
    get: operations["listAccessKeys"];
    /**
     * Create an access key
     * @description The key belongs to the caller's account. Its value is returned once, in `data`; only an argon2id hash is stored. `scopes` defaults to exactly the caller's; asking for a scope the caller lacks is 403 `forbidden`, an unknown scope 422 listing the valid ones. `expires_at` (RFC 3339, in the future) ends the key at that second; `max_reports_per_day` caps its submissions per UTC day. With an `Idempotency-Key` header, a retry within 24 hours returns the same key (see Idempotency keys above). Recorded as access_key.created.
     */
    post: operations["createAccessKey"];
  };
  "/api/v1/access-keys/{accessKeyID}": {
    /**
     * Delete an access key
     * @description Irreversible; the key is rejected (401) from the next request on. A caller may delete the key it is using. A key acts only on keys within its own scopes: a target holding a scope the caller lacks is 403 `forbidden` naming them. Recorded as access_key.deleted.
     */
    delete: operations["deleteAccessKey"];
    /**
     * Change an access key's daily quota
     * @description Sets `max_reports_per_day` (null removes the quota); it applies from the next submission, counting what the key already submitted today. A key acts only on keys within its own scopes: a target holding a scope the caller lacks is 403 `forbidden` naming them. Recorded as access_key.updated.
     */
    patch: operations["updateAccessKey"];
  };
  "/api/v1/access-keys/{accessKeyID}/rotate": {
    /**
     * Rotate an access key's value
     * @description Returns a new value for the same key id, scopes, expiry and quota. The old value keeps working for `grace_seconds` (0, the default, to 604800 = 7 days), then is refused (401). Rotating again during a grace period ends the older value at once. Send `{}` for no grace. A key acts only on keys within its own scopes: a target holding a scope the caller lacks is 403 `forbidden` naming them. Recorded as access_key.rotated.
     */
    post: operations["rotateAccessKey"];
  };
  "/api/v1/webhook-secret": {
    /**
     * The account's webhook signing secret
     * @description Every webhook event of the account is signed with this secret (Standard Webhooks, HMAC-SHA256). It is created on the first call. Needs the keys:manage scope.
     */
    get: operations["getWebhookSettings"];
  };
  "/api/v1/webhook-secret/rotate": {
    /**
     * Rotate the webhook signing secret
     * @description Replaces the secret. For 24 hours events carry two signatures (one per secret, space-separated in webhook-signature, as the standard allows), so receivers still holding the old secret keep accepting events while they switch. Send `{}` as the body. Recorded as webhook_secret.rotated.
     */
    post: operations["rotateWebhookSecret"];
  };
  "/api/v1/usage": {
    /**
     * Usage of the account per day or per key
     * @description Reports submitted, succeeded and failed, pages, bytes and render time of the account's reports, per UTC day (`group_by=day`, the default: every day of the range, zeros included) or per submitting key (`group_by=key`). A report counts on the day it was submitted; pages, bytes and render time count successful reports. The range is whole UTC days, from and to included: by default the last 30 days, at most 366. Usage is kept in a daily roll-up written with each report's status change, so it stays after the report is deleted or its PDF expires. A from after to, a range longer than allowed, an unreadable date or an unknown group_by is a 422 saying which.
     */
    get: operations["getUsage"];
  };
  "/api/v1/audit-events": {
    /**
     * List the account's audit events
     * @description Newest first, `limit` per page. Records access_key.created, access_key.updated, access_key.deleted, access_key.rotated, webhook_secret.rotated, dashboard.sign_in and dashboard.sign_in_failed, each with the acting key, the client address, the time and the target. Kept 90 days (--audit-retention). Needs the keys:manage scope.
     */
    get: operations["listAuditEvents"];
  };
  "/api/v1/signing-identities": {
    /**
     * List the account's signing identities
     * @description Newest first. Needs signing:manage.
     */
    get: operations["listSigningIdentities"];
    /**
     * Store a signing identity
     * @description Checks a PKCS#12 file and stores its key and certificate chain for options.signature. 422 with a code of its own for each problem: pkcs12_password_wrong, pkcs12_no_private_key, certificate_not_valid_now (expired or not yet valid), signing_key_unsupported (not RSA 2048+ or ECDSA P-256/P-384), pkcs12_too_large (over 2 MB), pkcs12_unreadable (not PKCS#12, or legacy RC2/3DES encryption). The private key is stored only sealed (AES-256-GCM under a key derived from the server secret) and is never returned. Recorded as signing_identity.created. Needs signing:manage.
     */
    post: operations["createSigningIdentity"];
  };
  "/api/v1/signing-identities/{identityID}": {
    /**
     * A signing identity
     * @description 404 for an unknown id or another account's. Needs signing:manage.
     */
    get: operations["getSigningIdentity"];
    /**
     * Delete a signing identity
     * @description Deletes the identity and its sealed key. Queued reports that name it fail with signing_identity_unavailable; signed PDFs stay valid. Recorded as signing_identity.deleted. Needs signing:manage.
     */
    delete: operations["deleteSigningIdentity"];
  };
  "/api/v1/e-invoices/validate": {
    /**
     * Check an incoming e-invoice
     * @description Checks an e-invoice by our implementation of the official rules: EN 16931 (BR-*, BR-CO-*, BR-CL-*, the VAT category rules) always, XRechnung (BR-DE-*) and Peppol BIS Billing 3.0 (PEPPOL-EN16931-R*) when the document's specification identifier names them or `rules` asks for them. Send the XML (UBL 2.1 Invoice or CreditNote, or UN/CEFACT CII) as `application/xml`, a Factur-X/ZUGFeRD PDF as `application/pdf` (its embedded factur-x.xml, zugferd-invoice.xml, ZUGFeRD-invoice.xml or xrechnung.xml is checked), a multipart/form-data part `file`, or JSON `{xml_base64 | pdf_base64, rules?}`. The answer is 200 whether the invoice is valid or not: `valid`, and each broken rule with an XPath to where. A body that is not XML or is hostile (a DOCTYPE or entities, nesting past 64, an attribute over 4096 characters) is 400 e_invoice_unreadable; over 10 MB of XML 413 e_invoice_too_large; XML that is no invoice, or a PDF without an embedded invoice, 422 e_invoice_unsupported.
     */
    post: operations["validateEInvoice"];
  };
  "/api/v1/e-invoices/render": {
    /**
     * Print an incoming e-invoice readable
     * @description Takes the same documents as `POST /e-invoices/validate` (UBL, CII, or a Factur-X/ZUGFeRD PDF: raw body, multipart `file`, or JSON `{xml_base64 | pdf_base64}`), checks it by the same rules, and queues an ordinary report that prints it: seller and buyer, dates, references, the lines, allowances and charges, the VAT breakdown, the totals, payment terms and account, notes, the supporting documents, and last the validation result. Answers 202 `{report_id}` like generate-pdf-async; GET, download, webhooks and retention are those of any report. Supporting documents the XML embeds (BG-24) become attachments of the PDF. `language` (`de`, `en`, `fr`) picks the labels and the number and date format; `archive: true` makes a PDF/A-3b carrying the original XML unchanged; `template_id` prints with a stored template that sees `e_invoice`, `validation`, `language`, `locale` and `labels`. With a raw body, the settings go in the query. Refusals are those of validate (400 e_invoice_unreadable, 413 e_invoice_too_large, 422 e_invoice_unsupported), 422 validation_failed for a bad setting, and those of generate-pdf-async (404 an unknown template_id; 429, 503 and 507 for the quota, the queue and the disk).
     */
    post: operations["renderEInvoice"];
  };
  "/api/v1/schedules": {
    /**
     * List the account's schedules
     * @description Newest first, `limit` per page (default 20, at most 100).
     */
    get: operations["listSchedules"];
    /**
     * Create a schedule
     * @description Renders the stored template `template_id` at every tick of `cron` in `timezone`, as `POST /generate-pdf-async` with `template_id` would: with `data`, or with the JSON object fetched from `data_url` when the tick comes, and `options`; `deliver` becomes the report's `options.deliver`, `webhook` its webhook (and the target of `schedule.run_failed`). A bad cron expression or an unknown time zone is 422 validation_failed naming the field and the accepted forms; an unknown template (or version) 404; `data` failing the template's data_schema 422. Recorded as schedule.created.
     */
    post: operations["createSchedule"];
  };
  "/api/v1/schedules/{scheduleID}": {
    /**
     * A schedule
     * @description With `next_run_at`, its next tick. Another account's schedule is 404.
     */
    get: operations["getSchedule"];
    /**
     * Delete a schedule
     * @description Its runs go with it; the reports they made stay. Recorded as schedule.deleted.
     */
    delete: operations["deleteSchedule"];
    /**
     * Change, pause or resume a schedule
     * @description Changes the fields given; `null` clears an optional one. `paused: true` pauses it (schedule.paused), `paused: false` resumes it from the next tick after now (schedule.resumed: ticks while paused are never caught up); any other change is schedule.updated. A new `cron` or `timezone` starts from its next tick.
     */
    patch: operations["updateSchedule"];
  };
  "/api/v1/schedules/{scheduleID}/runs": {
    /**
     * A schedule's runs
     * @description Each tick that ran, newest first (pages like `GET /reports`): the report it queued (`report_id`, and `report_status` now), or why it failed (`error`), the state of its schedule.run_failed event, and the report's `deliveries` when the schedule delivers (`deliver`).
     */
    get: operations["listScheduleRuns"];
  };
  "/api/v1/destinations": {
    /**
     * List the account's destinations
     * @description Newest first, without secrets. Needs destinations:manage.
     */
    get: operations["listDestinations"];
    /**
     * Create a destination
     * @description A place reports are delivered to (options.deliver): `type` s3, sftp or email, with the object of that name. An s3 endpoint or sftp host must be public (hosts on the operator's --destination-allow-hosts may be private, loopback or plain http); a cloud metadata address never is (422 validation_failed naming the field). An sftp host_key is pinned. Secrets (secret_access_key, private_key, password) are stored sealed and never returned. Recorded as destination.created. Needs destinations:manage.
     */
    post: operations["createDestination"];
  };
  "/api/v1/destinations/{destinationID}": {
    /**
     * A destination
     * @description 404 for an unknown id or another account's. Needs destinations:manage.
     */
    get: operations["getDestination"];
    /**
     * Delete a destination
     * @description Deletes it and its sealed secrets. Deliveries to it still pending fail with `the destination was deleted`. Recorded as destination.deleted. Needs destinations:manage.
     */
    delete: operations["deleteDestination"];
    /**
     * Change a destination
     * @description Changes the fields given (the type stays): a secret sent replaces the stored one, a secret left out is kept. Deliveries still pending use the new settings at their next attempt. Recorded as destination.updated (with the names of the changed fields, never their values). Needs destinations:manage.
     */
    patch: operations["updateDestination"];
  };
  "/api/v1/destinations/{destinationID}/test": {
    /**
     * Send a test object to a destination
     * @description Sends a small text object (reportgen-test.txt; an e-mail to the recipients) now, under the same outbound policy and deadline as a delivery, and answers 200 with `ok` and, when it failed, `error` saying what happened (refused by the policy, host key not the pinned one, credentials refused, no answer...). Recorded as destination.tested. Needs destinations:manage.
     */
    post: operations["testDestination"];
  };
}

export interface webhooks {
  "reportFinished": {
    /**
     * A report succeeded or failed; or one of its deliveries (options.deliver) ended: report.delivered, report.delivery_failed
     * @description Sent to the report's `webhook.url`. Verify `webhook-signature` before trusting the body; deduplicate on `webhook-id`.
     */
    post: operations["reportFinished"];
  };
  "scheduleRunFailed": {
    /**
     * A schedule's run failed
     * @description Sent to the schedule's `webhook.url` when a tick could queue no report; signed and retried like report events (same headers), webhook-id msg_<run_id>.
     */
    post: operations["scheduleRunFailed"];
  };
}

export interface components {
  schemas: {
    /** @description The invoice: EN 16931's business terms (BT-n), groups (BG-n) */
    Invoice: {
      /** @description Invoice number (BT-1, BR-02) */
      number: string;
      /** @description Invoice issue date (BT-2, BR-03) (YYYY-MM-DD) */
      issue_date: string;
      /** @description Invoice type code, UNTDID 1001 (BT-3, BR-04): 380 commercial invoice (default), 381 credit note, 384 corrected invoice, 389 self-billed invoice, 326 partial invoice, 386 prepayment invoice */
      type_code?: "380" | "381" | "384" | "389" | "326" | "386";
      /** @description Invoice currency, ISO 4217 (BT-5, BR-05) */
      currency: string;
      /** @description Invoice notes (BG-1) */
      notes?: {
          /** @description Invoice note (BT-22) */
          text: string;
          /** @description Subject of the note, UNTDID 4451 (BT-21), e.g. AAI general information */
          subject_code?: string;
        }[];
      /** @description Buyer reference (BT-10), e.g. the Leitweg-ID of a German public buyer. XRechnung requires it (BR-DE-15); Peppol requires it or order_reference (PEPPOL-EN16931-R003) */
      buyer_reference?: string;
      /** @description Purchase order reference (BT-13) */
      order_reference?: string;
      /** @description Sales order reference (BT-14) */
      sales_order_reference?: string;
      /** @description Contract reference (BT-12) */
      contract_reference?: string;
      /** @description Project reference (BT-11) */
      project_reference?: string;
      /** @description The invoice this one corrects or credits (BG-3) */
      preceding_invoice?: {
        /** @description Preceding invoice number (BT-25) */
        number: string;
        /** @description Its issue date (BT-26) (YYYY-MM-DD) */
        issue_date?: string;
      };
      /** @description The seller (BG-4) */
      seller: {
        /** @description Seller name (BT-27, BR-06) */
        name: string;
        /** @description Seller trading name (BT-28) */
        trading_name?: string;
        /** @description Seller legal registration identifier, e.g. the trade register number (BT-30) */
        legal_registration_id?: string;
        /** @description Seller VAT identifier with its country prefix (BT-31, BR-CO-09) */
        vat_id?: string;
        /** @description Seller tax registration identifier, the local tax number (BT-32) */
        tax_registration_id?: string;
        /** @description Seller postal address (BG-5, BR-08); country_code is required (BR-09) */
        address: {
          /** @description Address line 1 (BT-35 / BT-50 / BT-75) */
          line1?: string;
          /** @description Address line 2 */
          line2?: string;
          /** @description Address line 3 */
          line3?: string;
          /** @description City (BT-37 / BT-52 / BT-77) */
          city?: string;
          /** @description Post code (BT-38 / BT-53 / BT-78) */
          postal_code?: string;
          /** @description Country subdivision (region, state) */
          country_subdivision?: string;
          /** @description ISO 3166-1 alpha-2 country code */
          country_code: string;
        };
        /** @description Electronic address: the seller's (BT-34) or the buyer's (BT-49), and its scheme (BR-62, BR-63). XRechnung and Peppol require both (PEPPOL-EN16931-R020, R010) */
        electronic_address?: {
          /** @description Electronic address scheme (EAS code list), e.g. EM for e-mail, 0088 for GLN, 9930 for a German VAT id */
          scheme: string;
          /** @description The electronic address */
          value: string;
        };
        /** @description Contact: the seller contact (BG-6: BT-41 name, BT-42 phone, BT-43 e-mail; XRechnung requires all three, BR-DE-2, 5, 6, 7) or the buyer contact (BG-9) */
        contact?: {
          /** @description Contact person or department */
          name?: string;
          /** @description Telephone */
          phone?: string;
          /** @description E-mail address */
          email?: string;
        };
      };
      /** @description The buyer (BG-7) */
      buyer: {
        /** @description Buyer name (BT-44, BR-07) */
        name: string;
        /** @description Buyer trading name (BT-45) */
        trading_name?: string;
        /** @description Buyer legal registration identifier, e.g. the trade register number (BT-47) */
        legal_registration_id?: string;
        /** @description Buyer VAT identifier with its country prefix (BT-48, BR-CO-09) */
        vat_id?: string;
        /** @description Buyer postal address (BG-8, BR-10); country_code is required (BR-11) */
        address: {
          /** @description Address line 1 (BT-35 / BT-50 / BT-75) */
          line1?: string;
          /** @description Address line 2 */
          line2?: string;
          /** @description Address line 3 */
          line3?: string;
          /** @description City (BT-37 / BT-52 / BT-77) */
          city?: string;
          /** @description Post code (BT-38 / BT-53 / BT-78) */
          postal_code?: string;
          /** @description Country subdivision (region, state) */
          country_subdivision?: string;
          /** @description ISO 3166-1 alpha-2 country code */
          country_code: string;
        };
        /** @description Electronic address: the seller's (BT-34) or the buyer's (BT-49), and its scheme (BR-62, BR-63). XRechnung and Peppol require both (PEPPOL-EN16931-R020, R010) */
        electronic_address?: {
          /** @description Electronic address scheme (EAS code list), e.g. EM for e-mail, 0088 for GLN, 9930 for a German VAT id */
          scheme: string;
          /** @description The electronic address */
          value: string;
        };
        /** @description Contact: the seller contact (BG-6: BT-41 name, BT-42 phone, BT-43 e-mail; XRechnung requires all three, BR-DE-2, 5, 6, 7) or the buyer contact (BG-9) */
        contact?: {
          /** @description Contact person or department */
          name?: string;
          /** @description Telephone */
          phone?: string;
          /** @description E-mail address */
          email?: string;
        };
      };
      /** @description Delivery information (BG-13) */
      delivery?: {
        /** @description Actual delivery date (BT-72) (YYYY-MM-DD) */
        date?: string;
        /** @description Deliver to party name (BT-70) */
        ship_to_name?: string;
        /** @description Deliver to address (BG-15); country_code is required (BR-57) */
        ship_to_address?: {
          /** @description Address line 1 (BT-35 / BT-50 / BT-75) */
          line1?: string;
          /** @description Address line 2 */
          line2?: string;
          /** @description Address line 3 */
          line3?: string;
          /** @description City (BT-37 / BT-52 / BT-77) */
          city?: string;
          /** @description Post code (BT-38 / BT-53 / BT-78) */
          postal_code?: string;
          /** @description Country subdivision (region, state) */
          country_subdivision?: string;
          /** @description ISO 3166-1 alpha-2 country code */
          country_code: string;
        };
      };
      /** @description A period (BG-14 of the invoice, BG-26 of a line): start, end or both, the end not before the start */
      billing_period?: {
        /** @description Start date (BT-73 / BT-134) (YYYY-MM-DD) */
        start?: string;
        /** @description End date (BT-74 / BT-135) (YYYY-MM-DD) */
        end?: string;
      };
      /** @description Payment due date (BT-9); this or payment_terms is required when an amount is due (BR-CO-25) (YYYY-MM-DD) */
      due_date?: string;
      /** @description Payment terms (BT-20) */
      payment_terms?: string;
      /** @description Payment instructions (BG-16): the means, the credit transfer account (BG-17) or the direct debit (BG-19). XRechnung requires them (BR-DE-1) */
      payment?: {
        /** @description Payment means, UNTDID 4461 (BT-81): 30 credit transfer, 58 SEPA credit transfer, 59 SEPA direct debit */
        means_code: string;
        /** @description Payment means text (BT-82) */
        means_text?: string;
        /** @description Remittance information to quote with the payment (BT-83) */
        reference?: string;
        /** @description Payee account: IBAN (BT-84); required for means 30 and 58 (BR-61) */
        iban?: string;
        /** @description Payment account name (BT-85) */
        account_name?: string;
        /** @description Payment service provider: BIC (BT-86) */
        bic?: string;
        /** @description Direct debit (BG-19): the mandate reference (BT-89); required for means 59 by Peppol (PEPPOL-EN16931-R061) and XRechnung */
        mandate_reference?: string;
        /** @description Direct debit (BG-19): the seller's bank assigned creditor identifier (BT-90) */
        creditor_id?: string;
        /** @description Direct debit (BG-19): the buyer's debited account, an IBAN (BT-91) */
        debited_account?: string;
      };
      /** @description Invoice lines (BG-25): at least one (BR-16) */
      lines: ({
          /** @description Line identifier (BT-126); default: the line's position, 1, 2, … */
          id?: string;
          /** @description Line note (BT-127) */
          note?: string;
          /** @description Item name (BT-153, BR-25) */
          name: string;
          /** @description Item description (BT-154) */
          description?: string;
          /** @description Seller's item identifier (BT-155) */
          seller_item_id?: string;
          /** @description Buyer's item identifier (BT-156) */
          buyer_item_id?: string;
          /** @description Invoiced quantity (BT-129, BR-22); negative on a return. A decimal: a string such as "19.99" (recommended) or a JSON number */
          quantity: string | number;
          /** @description Unit of measure, UN/ECE Recommendation 20 (BT-130, BR-23): C62 one, H87 piece, HUR hour, KGM kilogram */
          unit_code: string;
          /** @description Item net price, without VAT, after the price discount (BT-146, BR-26); not negative (BR-27). A decimal: a string such as "19.99" (recommended) or a JSON number */
          net_price: string | number;
          /** @description Number of units the price is for (BT-149); default 1. A decimal: a string such as "19.99" (recommended) or a JSON number */
          base_quantity?: string | number;
          /** @description Item gross price before the price discount (BT-148); not negative (BR-28). A decimal: a string such as "19.99" (recommended) or a JSON number */
          gross_price?: string | number;
          /** @description Discount per unit included in net_price (BT-147). A decimal: a string such as "19.99" (recommended) or a JSON number */
          price_discount?: string | number;
          /** @description VAT category and rate of the line (BT-151, BT-152; BR-CO-04) */
          vat: {
            /** @description VAT category code: S standard rate, Z zero rated, E exempt, AE reverse charge, K intra-community supply, G export outside the EU, O not subject to VAT */
            category: "S" | "Z" | "E" | "AE" | "K" | "G" | "O";
            /** @description VAT rate in percent: above 0 for S, 0 for Z, E, AE, K and G (0 when absent), absent for O. A decimal: a string such as "19.99" (recommended) or a JSON number */
            rate?: string | number;
          };
          /** @description A period (BG-14 of the invoice, BG-26 of a line): start, end or both, the end not before the start */
          period?: {
            /** @description Start date (BT-73 / BT-134) (YYYY-MM-DD) */
            start?: string;
            /** @description End date (BT-74 / BT-135) (YYYY-MM-DD) */
            end?: string;
          };
          allowances?: ({
              /** @description Line allowance amount, without VAT (BT-136); at most 2 decimals. A decimal: a string such as "19.99" (recommended) or a JSON number */
              amount: string | number;
              /** @description Base amount the percentage applies to (BT-137); at most 2 decimals. A decimal: a string such as "19.99" (recommended) or a JSON number */
              base_amount?: string | number;
              /** @description Percentage (BT-138). A decimal: a string such as "19.99" (recommended) or a JSON number */
              percent?: string | number;
              /** @description Reason, as text */
              reason?: string;
              /** @description Reason code: UNTDID 5189 for allowances (e.g. 95 discount), UNTDID 7161 for charges (e.g. FC freight) */
              reason_code?: string;
            })[];
          charges?: ({
              /** @description Line charge amount, without VAT (BT-141); at most 2 decimals. A decimal: a string such as "19.99" (recommended) or a JSON number */
              amount: string | number;
              /** @description Base amount the percentage applies to (BT-142); at most 2 decimals. A decimal: a string such as "19.99" (recommended) or a JSON number */
              base_amount?: string | number;
              /** @description Percentage (BT-143). A decimal: a string such as "19.99" (recommended) or a JSON number */
              percent?: string | number;
              /** @description Reason, as text */
              reason?: string;
              /** @description Reason code: UNTDID 5189 for allowances (e.g. 95 discount), UNTDID 7161 for charges (e.g. FC freight) */
              reason_code?: string;
            })[];
          /** @description Line net amount (BT-131): quantity × net_price / base_quantity + charges − allowances, rounded to 2 decimals. Computed; checked when sent; at most 2 decimals. A decimal: a string such as "19.99" (recommended) or a JSON number */
          net_amount?: string | number;
          /** @description Referenced purchase order line (BT-132) */
          order_line_reference?: string;
          /** @description Buyer accounting reference (BT-133) */
          accounting_reference?: string;
        })[];
      /** @description Document level allowances (BG-20) */
      allowances?: ({
          /** @description Document level allowance amount, without VAT (BT-92); at most 2 decimals. A decimal: a string such as "19.99" (recommended) or a JSON number */
          amount: string | number;
          /** @description Base amount the percentage applies to (BT-93); at most 2 decimals. A decimal: a string such as "19.99" (recommended) or a JSON number */
          base_amount?: string | number;
          /** @description Percentage (BT-94). A decimal: a string such as "19.99" (recommended) or a JSON number */
          percent?: string | number;
          /** @description Reason, as text */
          reason?: string;
          /** @description Reason code: UNTDID 5189 for allowances (e.g. 95 discount), UNTDID 7161 for charges (e.g. FC freight) */
          reason_code?: string;
          /** @description VAT category and rate of the allowance (BT-95, BT-96) */
          vat: {
            /** @description VAT category code: S standard rate, Z zero rated, E exempt, AE reverse charge, K intra-community supply, G export outside the EU, O not subject to VAT */
            category: "S" | "Z" | "E" | "AE" | "K" | "G" | "O";
            /** @description VAT rate in percent: above 0 for S, 0 for Z, E, AE, K and G (0 when absent), absent for O. A decimal: a string such as "19.99" (recommended) or a JSON number */
            rate?: string | number;
          };
        })[];
      /** @description Document level charges (BG-21) */
      charges?: ({
          /** @description Document level charge amount, without VAT (BT-99); at most 2 decimals. A decimal: a string such as "19.99" (recommended) or a JSON number */
          amount: string | number;
          /** @description Base amount the percentage applies to (BT-100); at most 2 decimals. A decimal: a string such as "19.99" (recommended) or a JSON number */
          base_amount?: string | number;
          /** @description Percentage (BT-101). A decimal: a string such as "19.99" (recommended) or a JSON number */
          percent?: string | number;
          /** @description Reason, as text */
          reason?: string;
          /** @description Reason code: UNTDID 5189 for allowances (e.g. 95 discount), UNTDID 7161 for charges (e.g. FC freight) */
          reason_code?: string;
          /** @description VAT category and rate of the charge (BT-102, BT-103) */
          vat: {
            /** @description VAT category code: S standard rate, Z zero rated, E exempt, AE reverse charge, K intra-community supply, G export outside the EU, O not subject to VAT */
            category: "S" | "Z" | "E" | "AE" | "K" | "G" | "O";
            /** @description VAT rate in percent: above 0 for S, 0 for Z, E, AE, K and G (0 when absent), absent for O. A decimal: a string such as "19.99" (recommended) or a JSON number */
            rate?: string | number;
          };
        })[];
      /** @description VAT breakdown (BG-23): computed per category and rate from the lines, allowances and charges. Send entries to give exemption reasons (required for E) or to have your figures checked */
      vat_breakdown?: ({
          /** @description VAT category code: S standard rate, Z zero rated, E exempt, AE reverse charge, K intra-community supply, G export outside the EU, O not subject to VAT */
          category: "S" | "Z" | "E" | "AE" | "K" | "G" | "O";
          /** @description VAT category rate (BT-119); absent for O. A decimal: a string such as "19.99" (recommended) or a JSON number */
          rate?: string | number;
          /** @description VAT category taxable amount (BT-116): computed; checked when sent (BR-S-08 …); at most 2 decimals. A decimal: a string such as "19.99" (recommended) or a JSON number */
          taxable_amount?: string | number;
          /** @description VAT category tax amount (BT-117): computed; checked when sent (BR-CO-17, BR-S-09 …); at most 2 decimals. A decimal: a string such as "19.99" (recommended) or a JSON number */
          tax_amount?: string | number;
          /** @description VAT exemption reason text (BT-120): required for E unless a code is given (BR-E-10) */
          exemption_reason?: string;
          /** @description VAT exemption reason code, VATEX list (BT-121), e.g. VATEX-EU-132-1A */
          exemption_reason_code?: string;
        })[];
      /** @description Document totals (BG-22). All are computed from the lines, allowances and charges; prepaid and rounding are inputs. A total that is sent is checked against the computed one */
      totals?: {
        /** @description Sum of line net amounts (BT-106, BR-CO-10); at most 2 decimals. A decimal: a string such as "19.99" (recommended) or a JSON number */
        line_total?: string | number;
        /** @description Sum of document level allowances (BT-107, BR-CO-11); at most 2 decimals. A decimal: a string such as "19.99" (recommended) or a JSON number */
        allowance_total?: string | number;
        /** @description Sum of document level charges (BT-108, BR-CO-12); at most 2 decimals. A decimal: a string such as "19.99" (recommended) or a JSON number */
        charge_total?: string | number;
        /** @description Invoice total without VAT (BT-109, BR-CO-13); at most 2 decimals. A decimal: a string such as "19.99" (recommended) or a JSON number */
        tax_basis_total?: string | number;
        /** @description Invoice total VAT amount (BT-110, BR-CO-14); at most 2 decimals. A decimal: a string such as "19.99" (recommended) or a JSON number */
        tax_total?: string | number;
        /** @description Invoice total with VAT (BT-112, BR-CO-15); at most 2 decimals. A decimal: a string such as "19.99" (recommended) or a JSON number */
        grand_total?: string | number;
        /** @description Paid amount (BT-113); default 0; at most 2 decimals. A decimal: a string such as "19.99" (recommended) or a JSON number */
        prepaid?: string | number;
        /** @description Rounding amount (BT-114); default 0; at most 2 decimals. A decimal: a string such as "19.99" (recommended) or a JSON number */
        rounding?: string | number;
        /** @description Amount due for payment (BT-115, BR-CO-16); at most 2 decimals. A decimal: a string such as "19.99" (recommended) or a JSON number */
        due_payable?: string | number;
      };
    };
    /** @description An e-invoice: Factur-X / ZUGFeRD, XRechnung, Peppol BIS or UBL (docs/e-invoices.md) */
    EInvoice: ({
      /** @description facturx (default): a Factur-X / ZUGFeRD hybrid, the CII XML in a PDF/A-3b; xrechnung: XRechnung 3.0, the German CIUS, as XML (syntax ubl or cii); peppol: Peppol BIS Billing 3.0 (UBL); ubl: plain EN 16931 UBL 2.1. The XML-only formats still print the readable PDF; GET /reports/{id}/e-invoice serves the XML */
      format?: "facturx" | "xrechnung" | "peppol" | "ubl";
      /** @description facturx only: the Factur-X / ZUGFeRD profile, minimum, basic-wl, basic, en16931 (default), extended, or xrechnung (the CII XRechnung embedded as xrechnung.xml) */
      profile?: "minimum" | "basic-wl" | "basic" | "en16931" | "extended" | "xrechnung";
      /** @description xrechnung only: UBL 2.1 (default) or UN/CEFACT CII D16B */
      syntax?: "ubl" | "cii";
      /** @description xrechnung, peppol and ubl: also attach the XML to the PDF, made PDF/A-3b (an XRechnung so attached is ZUGFeRD's XRECHNUNG profile). Default false */
      embed?: boolean;
      invoice: components["schemas"]["Invoice"];
    }) | {
      /** @description Your own UN/CEFACT CII D16B XML (root rsm:CrossIndustryInvoice), base64-encoded: checked to be well-formed with that root, and embedded as it is */
      xml_base64: string;
    };
    /** @description Optional print settings (reportgen extension). CSS @page rules in the template win over format. */
    PdfOptions: {
      /** @enum {string} */
      format?: "A3" | "A4" | "A5" | "Letter" | "Legal" | "Tabloid";
      /** @default false */
      landscape?: boolean;
      /**
       * @description Print background colours and images
       * @default true
       */
      print_background?: boolean;
      /** @default 1 */
      scale?: number;
      margin?: {
        /** @description CSS length: 0, or a number with px, in, cm or mm */
        top?: string;
        /** @description CSS length: 0, or a number with px, in, cm or mm */
        right?: string;
        /** @description CSS length: 0, or a number with px, in, cm or mm */
        bottom?: string;
        /** @description CSS length: 0, or a number with px, in, cm or mm */
        left?: string;
      };
      /** @description Custom paper width (CSS length); give height too. Wins over format and landscape */
      width?: string;
      /** @description Custom paper height (CSS length); give width too. Wins over format and landscape */
      height?: string;
      /**
       * @description A CSS @page size in the template wins over format, width and height
       * @default true
       */
      prefer_css_page_size?: boolean;
      /** @description Pages to keep, e.g. "1-3, 5"; all when absent */
      page_ranges?: string;
      /** @description HTML printed at the top of every page, with its own <style>. Elements with class pageNumber, totalPages, date or title (the document's <title>, else metadata.title) are filled in. Text is 0 px unless its CSS sets a font-size. The top margin defaults to 15mm for it */
      header_template?: string;
      /** @description HTML printed at the bottom of every page, as header_template; e.g. <div style="font-size:9px;width:100%;text-align:center">Page <span class="pageNumber"></span> of <span class="totalPages"></span></div> */
      footer_template?: string;
      /**
       * @description Tagged (accessible) PDF with its structure tree
       * @default false
       */
      tagged?: boolean;
      /**
       * @description Bookmarks (outline) built from the document's headings
       * @default false
       */
      outline?: boolean;
      /** @description Document information of the PDF; its Creator is always reportgen */
      metadata?: {
        /** @description PDF Title; default: the document's <title> */
        title?: string;
        /** @description PDF Author */
        author?: string;
        /** @description PDF Subject */
        subject?: string;
        /** @description PDF Keywords */
        keywords?: string[];
      };
      /**
       * @description CSS Paged Media (Paged.js): @page :first/:left/:right/:blank with their own margins, the 16 margin boxes with counter(page) and counter(pages), string-set/string(), position: running()/element(), named pages, target-counter(), float: footnote. CSS must be in <style> elements; not with header_template or footer_template. See docs/long-documents.md
       * @default false
       */
      paged_media?: boolean;
      /** @description Big reports: render the template once per slice of data[array] (each run gets the data with that array replaced by its slice, plus a variable chunk = {index, count, first_row}), print the parts (two at a time by default) and join them into one PDF with one outline (options.page_numbers numbers the whole). Each chunk has --render-timeout; the whole report --report-timeout. Its request body may be up to --chunked-body-limit (64 MB) instead of --body-limit (10 MB). See docs/big-reports.md */
      chunk?: {
        /** @description The data array to slice: a key of data, or a dotted path of keys, e.g. "rows" or "ledger.rows" */
        array: string;
        /** @description The most rows per chunk: a chunk whose HTML would pass --chunk-part-html (192 KB, ~1,100 rows of a seven-column table) is cut into smaller ones, so any size from 1,000 up prints about as fast */
        size: number;
      };
      /** @description Print only once this holds (after the load event and web fonts), within the render deadline; otherwise the report fails with readiness_timeout */
      wait_for?: {
        /** @description CSS selector of an element that must exist */
        selector: string;
      } | {
        /** @description JavaScript expression that must become truthy, e.g. window.chartsReady === true */
        expression: string;
      } | {
        /** @description Milliseconds to wait after the load event */
        delay_ms: number;
      };
      /** @description A table of contents inserted after the first page: the document's headings (a merge: each part by its title), each with the page it prints on, right-aligned, and a link to it. Turns options.tagged and options.outline on (Chromium writes the headings' outline only into a tagged PDF). See docs/long-documents.md */
      toc?: boolean | {
        /**
         * @description The TOC page's heading
         * @default Contents
         */
        title?: string;
        /**
         * @description Deepest heading level listed (1: <h1> only, 6: all)
         * @default 3
         */
        levels?: number;
      };
      /** @description Page numbers stamped on every page as real text, counted across the whole PDF (a merge's parts continuously, a table of contents included), e.g. {"template": "Page {page} of {pages}", "position": "bottom-right"} */
      page_numbers?: {
        /**
         * @description Western European text (WinAnsi); {page} and {pages} are replaced by the page's number and the page count
         * @default Page {page} of {pages}
         */
        template?: string;
        /** @enum {string} */
        position?: "top-left" | "top-center" | "top-right" | "bottom-left" | "bottom-center" | "bottom-right";
      };
      /** @description Encrypt the PDF with AES-256. The passwords are never stored in clear: they wait sealed (AES-256-GCM, key derived from the server secret) until the PDF is made, then are deleted */
      encryption?: {
        /** @description Needed to open the PDF; without it anyone may open it, with the permissions below */
        user_password?: string;
        /** @description Lifts every restriction; must differ from user_password */
        owner_password: string;
        /** @description What readers with the user password may do; anything not listed is refused (default: nothing) */
        permissions?: ("print" | "copy" | "modify" | "annotate")[];
      };
      /** @description Text across the centre of every page, as large as fits */
      watermark?: {
        /** @description Western European text (WinAnsi: Latin-1 and € – — “ ” …), drawn across every page as real text */
        text: string;
        /**
         * @description From 0.05 (faint) to 1 (opaque)
         * @default 0.25
         */
        opacity?: number;
        /**
         * @description Degrees, counter-clockwise
         * @default 45
         */
        angle?: number;
        /** @enum {string} */
        position?: "under" | "over";
      };
      /** @description Laid on every page: the first page of another report (scaled to fit, centred), or a JPEG at its centre (96 dpi, shrunk to fit) */
      stamp?: ({
        /**
         * Format: uuid
         * @description A succeeded, unencrypted report of this account: its first page
         */
        pdf_report_id: string;
        /** @enum {string} */
        position?: "under" | "over";
      }) | ({
        image: {
          /** @description The image, base64 */
          content_base64: string;
          /**
           * @description JPEG only (baseline or progressive)
           * @constant
           */
          mime_type: "image/jpeg";
        };
        /**
         * @description From 0.05 (faint) to 1 (opaque)
         * @default 1
         */
        opacity?: number;
        /** @enum {string} */
        position?: "under" | "over";
      });
      /** @description Files embedded in the PDF (e.g. an e-invoice's XML). They count against the request body limit */
      attachments?: {
          /** @description Name shown by PDF readers (no / or \) */
          filename: string;
          /** @description The file, base64 */
          content_base64: string;
          /** @description e.g. application/xml */
          mime_type?: string;
        }[];
      /**
       * @description Fast web view: page 1 shows before the rest has downloaded ("Optimized: yes")
       * @default false
       */
      linearize?: boolean;
      e_invoice?: components["schemas"]["EInvoice"];
      /** @description Sign the PDF (PAdES baseline B-B, SubFilter ETSI.CAdES.detached; B-T with timestamp) with one of the account's signing identities, as the last step: after watermark, stamp, attachments, PDF/A, e-invoice and merge. Not with encryption or linearize. See docs/signatures.md */
      signature?: {
        /** @description A signing identity of the account (POST /api/v1/signing-identities) */
        identity_id: string;
        /** @description Why the document is signed (/Reason), e.g. Invoice issued */
        reason?: string;
        /** @description Where it was signed (/Location) */
        location?: string;
        /** @description How to reach the signer (/ContactInfo) */
        contact_info?: string;
        /**
         * @description PAdES B-T: add an RFC 3161 timestamp from the operator's time-stamp authority (--tsa-url). If it cannot be had, the report fails with timestamp_unavailable; it is never signed without it
         * @default false
         */
        timestamp?: boolean;
        /** @description Show the signer's name and the signing time in this box; without it the signature is invisible */
        visible?: {
          /** @description Page number, from 1 */
          page: number;
          /** @description Left edge, PDF points (1/72 in) from the page's left */
          x: number;
          /** @description Bottom edge, PDF points from the page's bottom */
          y: number;
          /** @description PDF points */
          width: number;
          /** @description PDF points */
          height: number;
        };
      };
      /** @description Make the report pictures of its printed pages instead of a PDF: the last step, after every other option. Not with pdfa, e_invoice, signature, encryption, linearize or attachments (they make sense only in a PDF). See docs/images.md */
      image?: {
        /** @enum {string} */
        format: "png" | "jpeg" | "webp";
        /**
         * @description Dots per inch: A4 at 150 dpi is 1240 x 1754 px
         * @default 150
         */
        dpi?: number;
        /**
         * @description Which pages: one ("1"), a range ("2-4") or "all". One page downloads as the image; several as a ZIP of page-001.png, ...
         * @default 1
         */
        pages?: string;
        /**
         * @description JPEG and WebP quality
         * @default 85
         */
        quality?: number;
      };
      /** @enum {string} */
      pdfa?: "2b" | "3b";
      /** @description Deliver the PDF, once it is stored, to these destinations (see docs/delivery.md). Each is retried with backoff; GET /reports/{id} shows `deliveries` */
      deliver?: {
          /**
           * Format: uuid
           * @description One of the account's destinations
           */
          destination_id: string;
          /** @description The object key (s3, after the destination's prefix) or file name (sftp, in its directory) with placeholders {yyyy} {mm} {dd} (the UTC day the report was accepted), {report_id} and {template_id}; default {report_id}.pdf */
          path?: string;
          /** @description E-mail only: the subject, same placeholders; default Report {report_id} */
          subject?: string;
          /** @description E-mail only: the plain-text message, same placeholders */
          body?: string;
        }[];
    };
    /** @description Optional (reportgen extension): POST a signed event (Standard Webhooks) to this URL when the report succeeds or fails */
    WebhookRequest: {
      /** @description Where to POST the event: a public https URL (hosts on the operator's --webhook-allow-hosts may also be private, loopback or plain http) */
      url: string;
    };
    Queued: {
      /** Format: uuid */
      report_id: string;
    };
    /** @description validation_failed, the *_conflict codes, the signing identity's codes: each problem and where */
    FieldProblems: {
        /** @description Where: a JSON path such as options.margin.top, or (body) */
        field: string;
        /** @description What is wrong there */
        problem: string;
        /** @description For a value checked against a data_schema: the JSON Pointer of the place in it */
        path?: string;
        /** @description The values the field takes (an unknown scope) */
        valid?: string[];
      }[];
    /** @description e_invoice_invalid: each broken rule, with the JSON path it concerns */
    RuleViolations: {
        /** @description The rule broken: an EN 16931 business rule (BR-CO-10), a format's (BR-DE-1), or schema */
        rule: string;
        /** @description The JSON path of the field concerned */
        field: string;
        /** @description What is wrong */
        problem: string;
      }[];
    RenderFailure: {
      /** @description The report failure code the preview ran into */
      code: string;
      /** @description What to change */
      message: string;
    };
    Error: {
      /**
       * @description Stable machine-readable code: one of a closed list (see the API description and the README)
       * @enum {string}
       */
      error: "invalid_json" | "e_invoice_unreadable" | "invalid_cursor" | "invalid_idempotency_key" | "unauthorized" | "forbidden" | "link_invalid" | "not_found" | "route_not_found" | "request_timeout" | "report_failed" | "idempotency_replay_unavailable" | "sample_limit_reached" | "report_expired" | "pdf_missing" | "payload_too_large" | "asset_too_large" | "asset_library_full" | "e_invoice_too_large" | "unsupported_media_type" | "asset_type_unsupported" | "validation_failed" | "template_render_failed" | "e_invoice_invalid" | "e_invoice_unsupported" | "pdfa_conflict" | "asset_unsafe" | "image_conflict" | "signature_conflict" | "pkcs12_too_large" | "pkcs12_unreadable" | "pkcs12_password_wrong" | "pkcs12_no_private_key" | "certificate_not_valid_now" | "signing_key_unsupported" | "idempotency_key_reused" | "rate_limited" | "quota_exceeded" | "account_queue_full" | "internal_error" | "queue_full" | "preview_unavailable" | "server_busy" | "storage_unavailable" | "database_unavailable" | "storage_full";
      /** @description What is wrong and how to fix it */
      message: string;
      /** @description More about the error, when there is more to say: one of these shapes, by code */
      details?: components["schemas"]["FieldProblems"] | components["schemas"]["RuleViolations"] | components["schemas"]["RenderFailure"] | {
        /** @description invalid_json: where the body stops being UTF-8, or holds a lone surrogate */
        byte_offset: number;
      } | {
        /** @description forbidden: the scope the route needs, which the key lacks */
        required_scope: string;
      } | {
        /** @description forbidden: the scopes a new key would have that the creating key lacks */
        missing_scopes: string[];
      } | {
        /** @description asset_unsafe: the SVG element refused */
        element: string;
        /** @description Why */
        problem: string;
      } | {
        /** @description asset_too_large: the upload's bytes */
        size: number;
        /** @description The limit in bytes */
        limit: number;
      } | {
        /** @description sample_limit_reached: the samples a template keeps at most */
        limit: number;
      } | {
        /** @description asset_library_full: bytes the account's other assets hold */
        used: number;
        /** @description The upload's bytes */
        size: number;
        /** @description The account's limit in bytes */
        limit: number;
      };
    };
    /** @description X-API-Key missing, unknown, wrong or deleted */
    Unauthorized: {
      /** @constant */
      error: "unauthorized";
    };
    WebhookDelivery: {
      /** @description The webhook-id header: the same on every attempt of this event */
      webhook_id: string;
      /** @enum {string} */
      event: "report.succeeded" | "report.failed" | "report.delivered" | "report.delivery_failed";
      /** @enum {string} */
      status: "pending" | "delivered" | "failed";
      /** Format: date-time */
      created_at: string;
      /** Format: date-time */
      next_attempt_at: string | null;
      /** Format: date-time */
      finished_at: string | null;
      last_error: string | null;
      attempts: ({
          /** Format: date-time */
          at: string;
          duration_ms: number;
          /** @description The receiver's HTTP status; null when it did not answer */
          response_status: number | null;
          /** @description Connection error, timeout or network-policy refusal */
          error: string | null;
        })[];
    };
    /** @description Only for reports submitted with a webhook: its URL and the delivery log of its event */
    ReportWebhook: {
      url: string;
      /** @description Empty until the report finishes; then its event, and one per options.deliver entry once that delivery ends */
      deliveries: components["schemas"]["WebhookDelivery"][];
    };
    Report: {
      /** Format: uuid */
      report_id: string;
      /** @enum {string} */
      status: "queued" | "processing" | "succeeded" | "failed" | "expired";
      /** @enum {string} */
      engine: "ejs" | "raw";
      /** Format: date-time */
      created_at: string;
      /** Format: date-time */
      started_at: string | null;
      /** Format: date-time */
      finished_at: string | null;
      /**
       * Format: date-time
       * @description When the PDF is deleted (retention)
       */
      expires_at: string | null;
      attempts: number;
      size_bytes: number | null;
      page_count: number | null;
      error: ({
        /**
         * @description Why it failed: one of a closed list (see the API description)
         * @enum {string}
         */
        code: "template_error" | "template_timeout" | "template_memory_exceeded" | "template_output_too_large" | "render_timeout" | "render_failed" | "page_closed" | "readiness_timeout" | "invalid_page_ranges" | "paged_media_failed" | "image_pages_missing" | "too_many_pages" | "pdf_too_large" | "renderer_crashed" | "render_interrupted" | "shutting_down" | "internal_error" | "storage_full" | "storage_error" | "renderer_unresponsive" | "sandbox_crashed" | "postprocess_failed" | "part_unavailable" | "passwords_unavailable" | "pdf_missing" | "asset_not_found" | "timestamp_unavailable" | "signature_page_missing" | "signing_identity_unavailable" | "renderer_unavailable";
        /** @description What to change */
        message: string;
      }) | null;
      /**
       * Format: uuid
       * @description The stored template it was made from; null for an inline template
       */
      template_id: string | null;
      /** @description The version of template_id it was made from */
      template_version: number | null;
      /** @enum {string|null} */
      pdfa: "2b" | "3b" | null;
      /** @description The e-invoice (options.e_invoice): its XML is served by GET /reports/{reportID}/e-invoice, and for Factur-X is also embedded in the PDF; null when none */
      e_invoice: ({
        /** @description facturx, xrechnung, peppol or ubl (options.e_invoice.format) */
        format: string;
        /** @description The Factur-X / ZUGFeRD profile when the XML is in the PDF as one, e.g. en16931; null otherwise */
        profile: string | null;
        /** @description BT-1 */
        invoice_number: string;
        /** @description BT-112, total with VAT, as a decimal string */
        grand_total: string;
        /** @description BT-5 */
        currency: string;
      }) | null;
      /** @description While a chunked report (options.chunk) is processing: how many of its chunks are printed */
      progress?: {
        /** @description Chunks printed so far */
        done: number;
        /** @description Chunks in all */
        total: number;
      };
      /** @description The PAdES signature the PDF carries (options.signature), signed when the report finished (finished_at); null when none */
      signature: ({
        /** @description The signing identity of options.signature */
        identity_id: string;
        /** @description The signer's common name, as PDF readers show it */
        signer: string;
        /** @enum {string} */
        level: "B-B" | "B-T";
      }) | null;
      /** @description The report is pictures of its printed pages (options.image); null for a PDF */
      image: ({
        /** @enum {string} */
        format: "png" | "jpeg" | "webp";
        dpi: number;
        /** @description The pages asked for (options.image.pages) */
        pages: string;
        /** @description Pictures in the file (once succeeded) */
        page_count: number | null;
        /** @description What the download is: the picture's type for one page, application/zip for several */
        content_type: string;
      }) | null;
      webhook?: components["schemas"]["ReportWebhook"];
      /** @description Where options.deliver sends the PDF, in its order (absent for reports without options.deliver) */
      deliveries?: ({
          destination_id: string;
          /** @enum {string} */
          status: "pending" | "delivered" | "failed";
          attempts: number;
          /** @description The object key, file or recipients */
          target: string;
          /** Format: date-time */
          delivered_at: string | null;
          /** @description What the last failed attempt met */
          error: string | null;
        })[];
    };
    NotReady: {
      /** @enum {string} */
      status: "queued" | "processing";
      report_id: string;
      message: string;
    };
    Template: {
      /** Format: uuid */
      template_id: string;
      name: string;
      /** @enum {string} */
      engine: "ejs" | "raw";
      latest_version: number;
      /** @description What generation requests without template_version render: the latest, or with require_approval the last approved version */
      default_version: number;
      require_approval: boolean;
      /** Format: date-time */
      created_at: string;
      /**
       * Format: date-time
       * @description When the template last changed
       */
      updated_at: string;
    };
    TemplateVersion: {
      /** Format: uuid */
      template_id: string;
      version: number;
      html_template: string;
      /** @description The JSON Schema, or null */
      data_schema: unknown;
      /** @description The sample data, or null */
      sample_data: unknown;
      /** @description The default options of generation requests, or null */
      options: unknown;
      /** @description The preflight's findings when this version was saved */
      warnings: ({
          /** @enum {string} */
          code: "missing_glyphs" | "blocked_resource" | "sample_render" | "sample_render_failed" | "sample_not_rendered" | "glyph_check_unavailable" | "missing_asset";
          /** @description What the PDF will look like and what to change */
          message: string;
          [key: string]: unknown;
        })[];
      /** Format: date-time */
      created_at: string;
    };
    Asset: {
      /** @description The asset's id; it stays the same when the name is uploaded again */
      id: string;
      /** @description Its name, used in templates as asset:<name>. 1 to 128 letters, digits, dots, dashes and underscores, starting with a letter or digit (e.g. logo.png) */
      name: string;
      /** @description The media type its bytes showed (magic numbers), not the declared one: one of image/png, image/jpeg, image/webp, image/svg+xml, font/woff2, font/woff, font/ttf, font/otf, text/css */
      type: string;
      /** @description Bytes */
      size: number;
      /** @description SHA-256 of the bytes, hex */
      sha256: string;
      /** @description What a template writes to use it: asset:<name> */
      reference: string;
      /**
       * Format: date-time
       * @description When the name was first uploaded
       */
      created_at: string;
      /**
       * Format: date-time
       * @description When its bytes were last replaced
       */
      updated_at: string;
    };
    CreatedAccessKey: {
      /** @description The new key value: shown only this once */
      data: string;
      id: string;
      name: string;
      scopes: string[];
      /** Format: date-time */
      created_at: string;
      /** Format: date-time */
      expires_at: string | null;
      max_reports_per_day: number | null;
    };
    AccessKey: {
      /** @description Public identifier; also the middle part of the key value (rg_<id>_<secret>), which rotation keeps */
      id: string;
      name: string;
      scopes: string[];
      /** Format: date-time */
      created_at: string;
      /**
       * Format: date-time
       * @description null: never expires
       */
      expires_at: string | null;
      /**
       * Format: date-time
       * @description Updated at most once a minute
       */
      last_used_at: string | null;
      max_reports_per_day: number | null;
      /**
       * Format: date-time
       * @description When its value was last rotated
       */
      rotated_at: string | null;
    };
    WebhookSettings: {
      data: {
        /** @description whsec_<base64>: pass it to any Standard Webhooks library to verify events */
        secret: string;
        /** Format: date-time */
        created_at: string;
        /**
         * Format: date-time
         * @description After a rotation, events also carry a signature made with the previous secret until then
         */
        previous_secret_valid_until: string | null;
      };
    };
    Usage: {
      /** @description First day of the range (UTC) */
      from: string;
      /** @description Last day of the range (UTC), included */
      to: string;
      /** @enum {string} */
      group_by: "day" | "key";
      /** @description group_by=day: every day of the range, oldest first. group_by=key: every key with reports in the range, most first */
      data: ({
          /** @description group_by=day: the UTC day; every day of the range is listed */
          date?: string;
          /** @description group_by=key: the submitting key's public id; null for reports older than per-key usage */
          key_id?: string | null;
          /** @description group_by=key: the key's name; null once the key is deleted */
          key_name?: string | null;
          /** @description submitted − succeeded − failed are still queued or rendering */
          reports: {
            /** @description Reports submitted (on their day of submission, whatever their status now) */
            submitted: number;
            /** @description Of those, reports that rendered (expired ones included) */
            succeeded: number;
            /** @description Of those, reports that failed */
            failed: number;
          };
          /** @description Pages of the successful reports' PDFs */
          pages: number;
          /** @description Bytes of the successful reports' PDFs */
          bytes: number;
          /** @description Render time of the successful reports in milliseconds: finished_at − started_at of each one's successful attempt, added up */
          render_ms: number;
        })[];
      /** @description The whole range */
      totals: {
        /** @description submitted − succeeded − failed are still queued or rendering */
        reports: {
          /** @description Reports submitted (on their day of submission, whatever their status now) */
          submitted: number;
          /** @description Of those, reports that rendered (expired ones included) */
          succeeded: number;
          /** @description Of those, reports that failed */
          failed: number;
        };
        /** @description Pages of the successful reports' PDFs */
        pages: number;
        /** @description Bytes of the successful reports' PDFs */
        bytes: number;
        /** @description Render time of the successful reports in milliseconds: finished_at − started_at of each one's successful attempt, added up */
        render_ms: number;
      };
    };
    AuditEvent: {
      id: string;
      /** @description One of: dashboard.sign_in, dashboard.sign_in_failed, template.created, template.version_created, template.deleted, template.updated, template.version_approved, template.sample_saved, template.sample_deleted, asset.created, asset.replaced, asset.deleted, access_key.created, access_key.deleted, access_key.rotated, access_key.updated, webhook_secret.rotated, signing_identity.created, signing_identity.deleted, schedule.created, schedule.updated, schedule.paused, schedule.resumed, schedule.deleted, destination.created, destination.updated, destination.deleted, destination.tested */
      type: string;
      /** @enum {string} */
      actor: "key" | "cli" | "anonymous";
      actor_key_id: string | null;
      /** @description The client's address (with --trust-proxy, the first X-Forwarded-For hop) */
      client_address: string | null;
      /** @description What was acted on: an access key id for access_key.* and dashboard.*, a template id for template.*, an asset id for asset.*, the account for webhook_secret.rotated */
      target: string | null;
      /** @description More about the event, e.g. the scopes of a created key */
      detail: Record<string, never> | null;
      /** Format: date-time */
      created_at: string;
    };
    /** @description A signing identity. Its private key is stored sealed and is never returned. */
    SigningIdentity: {
      /** Format: uuid */
      identity_id: string;
      /** @description The name given on upload */
      name: string;
      /** @description The signer's certificate subject, e.g. CN=Muster GmbH, O=Muster GmbH, C=DE */
      subject: string;
      /** @description The subject's CN: the signer's name PDF readers show */
      common_name: string;
      /** @description Who issued the certificate (the subject again for a self-signed one) */
      issuer: string;
      /** @description The certificate's serial number, hexadecimal */
      serial: string;
      /** Format: date-time */
      not_before: string;
      /**
       * Format: date-time
       * @description The certificate expires then: signing with it fails after that
       */
      not_after: string;
      /** @description SHA-256 of the certificate, AB:CD:… as openssl x509 -fingerprint -sha256 prints it */
      sha256_fingerprint: string;
      /** @description Certificates embedded in each signature, the signer's included */
      chain_length: number;
      /** Format: date-time */
      created_at: string;
    };
    EInvoiceValidation: {
      /** @description true when no rule with flag fatal is broken */
      valid: boolean;
      /** @enum {string} */
      syntax: "cii" | "ubl";
      /** @enum {string} */
      document: "invoice" | "credit_note";
      /** @description The specification identifier (BT-24) the document names */
      customization: string | null;
      /** @description Each rule set checked */
      rules: ({
          /** @enum {string} */
          id: "en16931" | "xrechnung" | "peppol";
          /** @description The official artefacts' release our rules follow */
          version: string;
        })[];
      /** @description Fatal findings: the invoice is not valid */
      errors: {
          /** @description The official rule id, e.g. BR-CO-15, BR-DE-15, PEPPOL-EN16931-R010 */
          rule: string;
          /** @description What the rule requires, as the official artefacts say it */
          message: string;
          /** @description An XPath to the element concerned */
          location: string;
        }[];
      /** @description Warnings: the invoice stays valid */
      warnings: {
          /** @description The official rule id, e.g. BR-CO-15, BR-DE-15, PEPPOL-EN16931-R010 */
          rule: string;
          /** @description What the rule requires, as the official artefacts say it */
          message: string;
          /** @description An XPath to the element concerned */
          location: string;
        }[];
    };
    Schedule: {
      /** Format: uuid */
      id: string;
      name: string;
      cron: string;
      timezone: string;
      /** Format: uuid */
      template_id: string;
      template_version: number | null;
      data: Record<string, never> | null;
      data_url: string | null;
      options: Record<string, never> | null;
      deliver: Record<string, never>[] | null;
      webhook: {
        url: string;
      } | null;
      /** @enum {string} */
      catch_up: "none" | "last";
      paused: boolean;
      /**
       * Format: date-time
       * @description The next tick; null while paused or when the expression fires no more
       */
      next_run_at: string | null;
      /** Format: date-time */
      created_at: string;
      /** Format: date-time */
      updated_at: string;
    };
    ScheduleRun: {
      /** Format: uuid */
      id: string;
      /** Format: uuid */
      schedule_id: string;
      /**
       * Format: date-time
       * @description The tick this run is for
       */
      scheduled_for: string;
      /** @enum {string} */
      status: "running" | "submitted" | "failed";
      /**
       * Format: uuid
       * @description The report it made: GET /reports/{id}
       */
      report_id: string | null;
      /** @description That report's status now (queued, processing, succeeded, failed, expired) */
      report_status: string | null;
      /** @description Why no report was made */
      error: string | null;
      /** @description The tick was missed and ran later because catch_up is last */
      caught_up: boolean;
      /** @description The schedule.run_failed webhook event of a failed run, when the schedule has a webhook */
      event: {
        /** @description pending, delivered or failed */
        status: string;
        attempts: number;
      } | null;
      /** Format: date-time */
      created_at: string;
      /** Format: date-time */
      finished_at: string | null;
      /** @description Where options.deliver sends the PDF, in its order (absent for reports without options.deliver) */
      deliveries?: ({
          destination_id: string;
          /** @enum {string} */
          status: "pending" | "delivered" | "failed";
          attempts: number;
          /** @description The object key, file or recipients */
          target: string;
          /** Format: date-time */
          delivered_at: string | null;
          /** @description What the last failed attempt met */
          error: string | null;
        })[];
    };
  };
  responses: never;
  parameters: never;
  requestBodies: never;
  headers: {
    /** @description The request's id (the client's own if it sent a valid one): it names the request in the service's log */
    "X-Request-Id": string;
    /** @description Seconds to wait before retrying the same request */
    "Retry-After": number;
    /** @description `true` when this is the stored answer of an earlier request with the same Idempotency-Key */
    "Idempotent-Replayed": "true";
  };
  pathItems: never;
}

export type $defs = Record<string, never>;

export type external = Record<string, never>;

export interface operations {

  /**
   * Health
   * @description 200 when the renderer is ready, 503 while Chromium is (re)starting.
   */
  getHealth: {
    responses: {
      /** @description Response for status 200 */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": unknown;
        };
      };
      /** @description An error: `queue_full`, `preview_unavailable`, `server_busy`, `storage_unavailable`, `database_unavailable` (the Errors table of the description says what to change) */
      503: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "Retry-After": components["headers"]["Retry-After"];
        };
        content: {
          "application/json": unknown;
        };
      };
    };
  };
  /**
   * Liveness
   * @description 200 whenever the process answers HTTP. Restart the service only when this fails.
   */
  getLiveness: {
    responses: {
      /** @description Response for status 200 */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": unknown;
        };
      };
    };
  };
  /**
   * Readiness
   * @description 200 when reports can be taken and rendered: a renderer is ready, the database commits a write, and the data dir has room above --min-free-space. 503 (with the failing check) otherwise, and `draining` from SIGTERM on (the instance still serves for --drain-period: take it out of the load balancer).
   */
  getReadiness: {
    responses: {
      /** @description Response for status 200 */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": unknown;
        };
      };
      /** @description An error: `queue_full`, `preview_unavailable`, `server_busy`, `storage_unavailable`, `database_unavailable` (the Errors table of the description says what to change) */
      503: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "Retry-After": components["headers"]["Retry-After"];
        };
        content: {
          "application/json": unknown;
        };
      };
    };
  };
  /**
   * Prometheus metrics
   * @description Text exposition format. Open unless --metrics-token is set (then `Authorization: Bearer <token>`).
   */
  getMetrics: {
    responses: {
      /** @description Prometheus text exposition (version 0.0.4) */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "text/plain": string;
        };
      };
      /** @description --metrics-token is set and the request's bearer token does not match */
      401: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "text/plain": string;
        };
      };
    };
  };
  /**
   * Download an e-invoice's XML through a signed link
   * @description The link comes from GET /api/v1/reports/{reportID}/e-invoice. Invalid, tampered (a PDF link included), expired or deleted-report links all get the same 403 `link_invalid`.
   */
  downloadEInvoiceFile: {
    parameters: {
      query?: {
        expires?: string;
        signature?: string;
      };
      path: {
        reportID: string;
      };
    };
    responses: {
      /** @description The XML */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/xml": string;
        };
      };
      /** @description Invalid, tampered or expired link, or a deleted report */
      403: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  /**
   * Download a PDF through a signed link
   * @description The link comes from GET /api/v1/reports/{reportID}/download. Invalid, tampered, expired or deleted-report links all get the same 403 `link_invalid`. A valid link to a report whose PDF went missing from the store before its retention ended gets 410 `pdf_missing` (the report then carries that error too).
   */
  downloadFile: {
    parameters: {
      query?: {
        expires?: string;
        signature?: string;
      };
      path: {
        reportID: string;
      };
    };
    responses: {
      /** @description The PDF; for an image report (options.image) its picture, or a ZIP of its pictures (page-001.png, ...) */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/pdf": string;
          "image/png": string;
          "image/jpeg": string;
          "image/webp": string;
          "application/zip": string;
        };
      };
      /** @description Invalid, tampered or expired link, or a deleted report */
      403: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description `pdf_missing`: the report succeeded, but its PDF is missing from the store; submit it again */
      410: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description The PDF store (bucket) cannot be reached right now; retry the same link after Retry-After seconds */
      503: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "Retry-After": components["headers"]["Retry-After"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  /**
   * Queue a PDF
   * @description Answers 202 with `report_id` as soon as the report is durably queued. Poll `GET /reports/{reportID}` or `GET /reports/{reportID}/download`. With engine `ejs`, EJS runs in a sandbox (no host access) with the given `data`; EJS options are never taken from `data`. With engine `raw`, the HTML is printed as given and `data` is ignored. Instead of `html_template` and `engine`, `template_id` (and optionally `template_version`, default the latest) renders a stored template: `data` is checked against its `data_schema` before anything is queued (422 validation_failed naming every failing path), its `options` are defaults that the request's override field by field, and the report records `template_id` and `template_version`. Exactly one form per request (422 otherwise); an unknown template or version, or another account's, is 404. With `webhook.url`, a signed event is POSTed there when the report succeeds or fails (see Webhooks above). With an `Idempotency-Key` header, a retry within 24 hours returns the same `report_id` instead of queueing a second report.
   */
  generatePdfAsync: {
    parameters: {
      header?: {
        "idempotency-key"?: string;
      };
    };
    requestBody: {
      content: {
        "application/json": {
          /** @description HTML; with engine ejs it may contain EJS tags such as <%= name %>. Required unless template_id is given (not both) */
          html_template?: string;
          /** @enum {string} */
          engine?: "ejs" | "raw";
          /**
           * Format: uuid
           * @description A stored template of this account (POST /templates), instead of html_template; data is checked against its data_schema (422 when it does not match, or when the check takes longer than the server's --schema-timeout, 2 s by default)
           */
          template_id?: string;
          /** @description The version of template_id to render; default: its latest version at submission */
          template_version?: number;
          /** @description JSON object with the template's values. Required for ejs; ignored for raw */
          data?: unknown;
          options?: components["schemas"]["PdfOptions"];
          webhook?: components["schemas"]["WebhookRequest"];
        };
      };
    };
    responses: {
      /** @description Response for status 202 */
      202: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          /** @description The new report: /api/v1/reports/{report_id} */
          Location?: string;
          "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
        };
        content: {
          "application/json": components["schemas"]["Queued"];
        };
      };
      /** @description An error: `invalid_json`, `e_invoice_unreadable`, `invalid_cursor`, `invalid_idempotency_key` (the Errors table of the description says what to change) */
      400: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description X-API-Key missing, unknown, wrong or deleted */
      401: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Unauthorized"];
        };
      };
      /** @description An error: `forbidden`, `link_invalid` (the Errors table of the description says what to change) */
      403: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `not_found`, `route_not_found` (the Errors table of the description says what to change) */
      404: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `request_timeout` (the Errors table of the description says what to change) */
      408: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `report_failed`, `idempotency_replay_unavailable`, `sample_limit_reached` (the Errors table of the description says what to change) */
      409: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `payload_too_large`, `asset_too_large`, `asset_library_full`, `e_invoice_too_large` (the Errors table of the description says what to change) */
      413: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `unsupported_media_type`, `asset_type_unsupported` (the Errors table of the description says what to change) */
      415: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `validation_failed`, `template_render_failed`, `e_invoice_invalid`, `e_invoice_unsupported`, `pdfa_conflict`, `asset_unsafe`, `image_conflict`, `signature_conflict`, `pkcs12_too_large`, `pkcs12_unreadable`, `pkcs12_password_wrong`, `pkcs12_no_private_key`, `certificate_not_valid_now`, `signing_key_unsupported`, `idempotency_key_reused` (the Errors table of the description says what to change) */
      422: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `rate_limited`, `quota_exceeded`, `account_queue_full` (the Errors table of the description says what to change) */
      429: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "Retry-After": components["headers"]["Retry-After"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `internal_error` (the Errors table of the description says what to change) */
      500: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `queue_full`, `preview_unavailable`, `server_busy`, `storage_unavailable`, `database_unavailable` (the Errors table of the description says what to change) */
      503: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "Retry-After": components["headers"]["Retry-After"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `storage_full` (the Errors table of the description says what to change) */
      507: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "Retry-After": components["headers"]["Retry-After"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  /**
   * Merge reports into one PDF
   * @description Queues a new report whose PDF is the given reports' PDFs one after the other (its page count is their sum, plus the pages of a table of contents), with one bookmark per part (the part's PDF title, else `Report <id>`), and `options` (toc, page_numbers, watermark, stamp, attachments, encryption, linearize, pdfa) applied to the result. The new report follows the same flow as a generated one: status, long polling, download link and `webhook`; it shows engine `raw`. Every part must be a succeeded, unencrypted report of this account: an unknown id or another account's is 404, one not yet succeeded (or expired, or encrypted) is 422 naming it.
   */
  mergeReports: {
    parameters: {
      header?: {
        "idempotency-key"?: string;
      };
    };
    requestBody: {
      content: {
        "application/json": {
          /** @description Succeeded reports of this account, in the order their pages follow each other */
          report_ids: string[];
          /** @description Post-processing of the merged PDF (the same fields as in a generation request) */
          options?: {
            /** @description A table of contents inserted after the first page: the document's headings (a merge: each part by its title), each with the page it prints on, right-aligned, and a link to it. Turns options.tagged and options.outline on (Chromium writes the headings' outline only into a tagged PDF). See docs/long-documents.md */
            toc?: boolean | {
              /**
               * @description The TOC page's heading
               * @default Contents
               */
              title?: string;
              /**
               * @description Deepest heading level listed (1: <h1> only, 6: all)
               * @default 3
               */
              levels?: number;
            };
            /** @description Page numbers stamped on every page as real text, counted across the whole PDF (a merge's parts continuously, a table of contents included), e.g. {"template": "Page {page} of {pages}", "position": "bottom-right"} */
            page_numbers?: {
              /**
               * @description Western European text (WinAnsi); {page} and {pages} are replaced by the page's number and the page count
               * @default Page {page} of {pages}
               */
              template?: string;
              /** @enum {string} */
              position?: "top-left" | "top-center" | "top-right" | "bottom-left" | "bottom-center" | "bottom-right";
            };
            /** @description Encrypt the PDF with AES-256. The passwords are never stored in clear: they wait sealed (AES-256-GCM, key derived from the server secret) until the PDF is made, then are deleted */
            encryption?: {
              /** @description Needed to open the PDF; without it anyone may open it, with the permissions below */
              user_password?: string;
              /** @description Lifts every restriction; must differ from user_password */
              owner_password: string;
              /** @description What readers with the user password may do; anything not listed is refused (default: nothing) */
              permissions?: ("print" | "copy" | "modify" | "annotate")[];
            };
            /** @description Text across the centre of every page, as large as fits */
            watermark?: {
              /** @description Western European text (WinAnsi: Latin-1 and € – — “ ” …), drawn across every page as real text */
              text: string;
              /**
               * @description From 0.05 (faint) to 1 (opaque)
               * @default 0.25
               */
              opacity?: number;
              /**
               * @description Degrees, counter-clockwise
               * @default 45
               */
              angle?: number;
              /** @enum {string} */
              position?: "under" | "over";
            };
            /** @description Laid on every page: the first page of another report (scaled to fit, centred), or a JPEG at its centre (96 dpi, shrunk to fit) */
            stamp?: ({
              /**
               * Format: uuid
               * @description A succeeded, unencrypted report of this account: its first page
               */
              pdf_report_id: string;
              /** @enum {string} */
              position?: "under" | "over";
            }) | ({
              image: {
                /** @description The image, base64 */
                content_base64: string;
                /**
                 * @description JPEG only (baseline or progressive)
                 * @constant
                 */
                mime_type: "image/jpeg";
              };
              /**
               * @description From 0.05 (faint) to 1 (opaque)
               * @default 1
               */
              opacity?: number;
              /** @enum {string} */
              position?: "under" | "over";
            });
            /** @description Files embedded in the PDF (e.g. an e-invoice's XML). They count against the request body limit */
            attachments?: {
                /** @description Name shown by PDF readers (no / or \) */
                filename: string;
                /** @description The file, base64 */
                content_base64: string;
                /** @description e.g. application/xml */
                mime_type?: string;
              }[];
            /**
             * @description Fast web view: page 1 shows before the rest has downloaded ("Optimized: yes")
             * @default false
             */
            linearize?: boolean;
            e_invoice?: components["schemas"]["EInvoice"];
            /** @description Sign the PDF (PAdES baseline B-B, SubFilter ETSI.CAdES.detached; B-T with timestamp) with one of the account's signing identities, as the last step: after watermark, stamp, attachments, PDF/A, e-invoice and merge. Not with encryption or linearize. See docs/signatures.md */
            signature?: {
              /** @description A signing identity of the account (POST /api/v1/signing-identities) */
              identity_id: string;
              /** @description Why the document is signed (/Reason), e.g. Invoice issued */
              reason?: string;
              /** @description Where it was signed (/Location) */
              location?: string;
              /** @description How to reach the signer (/ContactInfo) */
              contact_info?: string;
              /**
               * @description PAdES B-T: add an RFC 3161 timestamp from the operator's time-stamp authority (--tsa-url). If it cannot be had, the report fails with timestamp_unavailable; it is never signed without it
               * @default false
               */
              timestamp?: boolean;
              /** @description Show the signer's name and the signing time in this box; without it the signature is invisible */
              visible?: {
                /** @description Page number, from 1 */
                page: number;
                /** @description Left edge, PDF points (1/72 in) from the page's left */
                x: number;
                /** @description Bottom edge, PDF points from the page's bottom */
                y: number;
                /** @description PDF points */
                width: number;
                /** @description PDF points */
                height: number;
              };
            };
            /** @description Make the report pictures of its printed pages instead of a PDF: the last step, after every other option. Not with pdfa, e_invoice, signature, encryption, linearize or attachments (they make sense only in a PDF). See docs/images.md */
            image?: {
              /** @enum {string} */
              format: "png" | "jpeg" | "webp";
              /**
               * @description Dots per inch: A4 at 150 dpi is 1240 x 1754 px
               * @default 150
               */
              dpi?: number;
              /**
               * @description Which pages: one ("1"), a range ("2-4") or "all". One page downloads as the image; several as a ZIP of page-001.png, ...
               * @default 1
               */
              pages?: string;
              /**
               * @description JPEG and WebP quality
               * @default 85
               */
              quality?: number;
            };
            /** @enum {string} */
            pdfa?: "2b" | "3b";
            /** @description Deliver the PDF, once it is stored, to these destinations (see docs/delivery.md). Each is retried with backoff; GET /reports/{id} shows `deliveries` */
            deliver?: {
                /**
                 * Format: uuid
                 * @description One of the account's destinations
                 */
                destination_id: string;
                /** @description The object key (s3, after the destination's prefix) or file name (sftp, in its directory) with placeholders {yyyy} {mm} {dd} (the UTC day the report was accepted), {report_id} and {template_id}; default {report_id}.pdf */
                path?: string;
                /** @description E-mail only: the subject, same placeholders; default Report {report_id} */
                subject?: string;
                /** @description E-mail only: the plain-text message, same placeholders */
                body?: string;
              }[];
          };
          webhook?: components["schemas"]["WebhookRequest"];
        };
      };
    };
    responses: {
      /** @description Response for status 202 */
      202: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          /** @description The new report: /api/v1/reports/{report_id} */
          Location?: string;
          "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
        };
        content: {
          "application/json": components["schemas"]["Queued"];
        };
      };
      /** @description An error: `invalid_json`, `e_invoice_unreadable`, `invalid_cursor`, `invalid_idempotency_key` (the Errors table of the description says what to change) */
      400: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description X-API-Key missing, unknown, wrong or deleted */
      401: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Unauthorized"];
        };
      };
      /** @description An error: `forbidden`, `link_invalid` (the Errors table of the description says what to change) */
      403: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `not_found`, `route_not_found` (the Errors table of the description says what to change) */
      404: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `request_timeout` (the Errors table of the description says what to change) */
      408: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `report_failed`, `idempotency_replay_unavailable`, `sample_limit_reached` (the Errors table of the description says what to change) */
      409: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `payload_too_large`, `asset_too_large`, `asset_library_full`, `e_invoice_too_large` (the Errors table of the description says what to change) */
      413: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `unsupported_media_type`, `asset_type_unsupported` (the Errors table of the description says what to change) */
      415: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `validation_failed`, `template_render_failed`, `e_invoice_invalid`, `e_invoice_unsupported`, `pdfa_conflict`, `asset_unsafe`, `image_conflict`, `signature_conflict`, `pkcs12_too_large`, `pkcs12_unreadable`, `pkcs12_password_wrong`, `pkcs12_no_private_key`, `certificate_not_valid_now`, `signing_key_unsupported`, `idempotency_key_reused` (the Errors table of the description says what to change) */
      422: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `rate_limited`, `quota_exceeded`, `account_queue_full` (the Errors table of the description says what to change) */
      429: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "Retry-After": components["headers"]["Retry-After"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `internal_error` (the Errors table of the description says what to change) */
      500: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `queue_full`, `preview_unavailable`, `server_busy`, `storage_unavailable`, `database_unavailable` (the Errors table of the description says what to change) */
      503: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "Retry-After": components["headers"]["Retry-After"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `storage_full` (the Errors table of the description says what to change) */
      507: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "Retry-After": components["headers"]["Retry-After"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  /**
   * List the account's reports
   * @description Newest first, `limit` per page (default 20, at most 100), optionally only one `status`. Reports of other accounts are never listed.
   */
  listReports: {
    parameters: {
      query?: {
        limit?: number;
        cursor?: string;
        status?: "queued" | "processing" | "succeeded" | "failed" | "expired";
      };
    };
    responses: {
      /** @description Response for status 200 */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": {
            data: components["schemas"]["Report"][];
            /** @description Pass as cursor for the next page; null on the last page */
            next_cursor: string | null;
          };
        };
      };
      /** @description An error: `invalid_json`, `e_invoice_unreadable`, `invalid_cursor`, `invalid_idempotency_key` (the Errors table of the description says what to change) */
      400: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description X-API-Key missing, unknown, wrong or deleted */
      401: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Unauthorized"];
        };
      };
      /** @description An error: `forbidden`, `link_invalid` (the Errors table of the description says what to change) */
      403: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `validation_failed`, `template_render_failed`, `e_invoice_invalid`, `e_invoice_unsupported`, `pdfa_conflict`, `asset_unsafe`, `image_conflict`, `signature_conflict`, `pkcs12_too_large`, `pkcs12_unreadable`, `pkcs12_password_wrong`, `pkcs12_no_private_key`, `certificate_not_valid_now`, `signing_key_unsupported`, `idempotency_key_reused` (the Errors table of the description says what to change) */
      422: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `rate_limited`, `quota_exceeded`, `account_queue_full` (the Errors table of the description says what to change) */
      429: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "Retry-After": components["headers"]["Retry-After"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `internal_error` (the Errors table of the description says what to change) */
      500: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `queue_full`, `preview_unavailable`, `server_busy`, `storage_unavailable`, `database_unavailable` (the Errors table of the description says what to change) */
      503: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "Retry-After": components["headers"]["Retry-After"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  /**
   * A report's status
   * @description Status is one of queued, processing, succeeded, failed (with `error`), expired (PDF deleted after the retention period). With `wait`, answers as soon as the report is finished (long polling). For a report submitted with a webhook, `webhook` shows its URL and every delivery attempt with its outcome (absent otherwise, and in the list). For a report submitted with options.deliver, `deliveries` shows each destination's status (pending, delivered, failed), attempts, target, delivered_at and last error.
   */
  getReport: {
    parameters: {
      query?: {
        wait?: number;
      };
      path: {
        reportID: string;
      };
    };
    responses: {
      /** @description Response for status 200 */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": {
            data: components["schemas"]["Report"];
          };
        };
      };
      /** @description X-API-Key missing, unknown, wrong or deleted */
      401: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Unauthorized"];
        };
      };
      /** @description An error: `forbidden`, `link_invalid` (the Errors table of the description says what to change) */
      403: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `not_found`, `route_not_found` (the Errors table of the description says what to change) */
      404: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `validation_failed`, `template_render_failed`, `e_invoice_invalid`, `e_invoice_unsupported`, `pdfa_conflict`, `asset_unsafe`, `image_conflict`, `signature_conflict`, `pkcs12_too_large`, `pkcs12_unreadable`, `pkcs12_password_wrong`, `pkcs12_no_private_key`, `certificate_not_valid_now`, `signing_key_unsupported`, `idempotency_key_reused` (the Errors table of the description says what to change) */
      422: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `rate_limited`, `quota_exceeded`, `account_queue_full` (the Errors table of the description says what to change) */
      429: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "Retry-After": components["headers"]["Retry-After"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `internal_error` (the Errors table of the description says what to change) */
      500: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `queue_full`, `preview_unavailable`, `server_busy`, `storage_unavailable`, `database_unavailable` (the Errors table of the description says what to change) */
      503: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "Retry-After": components["headers"]["Retry-After"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  /**
   * Delete a report
   * @description Removes the record and the PDF; existing download links stop working. A report still rendering is cancelled and its PDF never appears.
   */
  deleteReport: {
    parameters: {
      path: {
        reportID: string;
      };
    };
    responses: {
      /** @description Response for status 200 */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": {
            data: {
              report_id: string;
              /** @constant */
              deleted: true;
            };
          };
        };
      };
      /** @description X-API-Key missing, unknown, wrong or deleted */
      401: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Unauthorized"];
        };
      };
      /** @description An error: `forbidden`, `link_invalid` (the Errors table of the description says what to change) */
      403: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `not_found`, `route_not_found` (the Errors table of the description says what to change) */
      404: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `rate_limited`, `quota_exceeded`, `account_queue_full` (the Errors table of the description says what to change) */
      429: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "Retry-After": components["headers"]["Retry-After"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `internal_error` (the Errors table of the description says what to change) */
      500: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `queue_full`, `preview_unavailable`, `server_busy`, `storage_unavailable`, `database_unavailable` (the Errors table of the description says what to change) */
      503: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "Retry-After": components["headers"]["Retry-After"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  /**
   * A download link for the PDF
   * @description 200 with `data` (the link) when ready. 202 with `status` and a `Retry-After` header while queued or processing (with `wait`, only after waiting that long). 409 `report_failed` with the reason when rendering failed. 410 `report_expired` after the retention period; 410 `pdf_missing` when a succeeded report's PDF is missing from the store before then (the report then carries that error too).
   */
  downloadReport: {
    parameters: {
      query?: {
        wait?: number;
      };
      path: {
        reportID: string;
      };
    };
    responses: {
      /** @description Response for status 200 */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": {
            /** @description Absolute, signed link to the PDF; usable without a key until expires_at */
            data: string;
            /** Format: date-time */
            expires_at: string;
          };
        };
      };
      /** @description Response for status 202 */
      202: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "Retry-After": components["headers"]["Retry-After"];
        };
        content: {
          "application/json": components["schemas"]["NotReady"];
        };
      };
      /** @description X-API-Key missing, unknown, wrong or deleted */
      401: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Unauthorized"];
        };
      };
      /** @description An error: `forbidden`, `link_invalid` (the Errors table of the description says what to change) */
      403: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `not_found`, `route_not_found` (the Errors table of the description says what to change) */
      404: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `report_failed`, `idempotency_replay_unavailable`, `sample_limit_reached` (the Errors table of the description says what to change) */
      409: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `report_expired`, `pdf_missing` (the Errors table of the description says what to change) */
      410: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `validation_failed`, `template_render_failed`, `e_invoice_invalid`, `e_invoice_unsupported`, `pdfa_conflict`, `asset_unsafe`, `image_conflict`, `signature_conflict`, `pkcs12_too_large`, `pkcs12_unreadable`, `pkcs12_password_wrong`, `pkcs12_no_private_key`, `certificate_not_valid_now`, `signing_key_unsupported`, `idempotency_key_reused` (the Errors table of the description says what to change) */
      422: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `rate_limited`, `quota_exceeded`, `account_queue_full` (the Errors table of the description says what to change) */
      429: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "Retry-After": components["headers"]["Retry-After"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `internal_error` (the Errors table of the description says what to change) */
      500: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `queue_full`, `preview_unavailable`, `server_busy`, `storage_unavailable`, `database_unavailable` (the Errors table of the description says what to change) */
      503: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "Retry-After": components["headers"]["Retry-After"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  /**
   * A download link for the e-invoice XML
   * @description For a report with options.e_invoice: answers like /download, with a link that serves the XML (application/xml, named after the invoice number): the XRechnung, Peppol or UBL XML, or for Factur-X the XML embedded in the PDF. 404 for a report without an e-invoice.
   */
  getReportEInvoice: {
    parameters: {
      query?: {
        wait?: number;
      };
      path: {
        reportID: string;
      };
    };
    responses: {
      /** @description Response for status 200 */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": {
            /** @description Absolute, signed link to the e-invoice XML; usable without a key until expires_at */
            data: string;
            /** Format: date-time */
            expires_at: string;
          };
        };
      };
      /** @description Response for status 202 */
      202: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "Retry-After": components["headers"]["Retry-After"];
        };
        content: {
          "application/json": components["schemas"]["NotReady"];
        };
      };
      /** @description X-API-Key missing, unknown, wrong or deleted */
      401: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Unauthorized"];
        };
      };
      /** @description An error: `forbidden`, `link_invalid` (the Errors table of the description says what to change) */
      403: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `not_found`, `route_not_found` (the Errors table of the description says what to change) */
      404: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `report_failed`, `idempotency_replay_unavailable`, `sample_limit_reached` (the Errors table of the description says what to change) */
      409: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `report_expired`, `pdf_missing` (the Errors table of the description says what to change) */
      410: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `validation_failed`, `template_render_failed`, `e_invoice_invalid`, `e_invoice_unsupported`, `pdfa_conflict`, `asset_unsafe`, `image_conflict`, `signature_conflict`, `pkcs12_too_large`, `pkcs12_unreadable`, `pkcs12_password_wrong`, `pkcs12_no_private_key`, `certificate_not_valid_now`, `signing_key_unsupported`, `idempotency_key_reused` (the Errors table of the description says what to change) */
      422: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `rate_limited`, `quota_exceeded`, `account_queue_full` (the Errors table of the description says what to change) */
      429: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "Retry-After": components["headers"]["Retry-After"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `internal_error` (the Errors table of the description says what to change) */
      500: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `queue_full`, `preview_unavailable`, `server_busy`, `storage_unavailable`, `database_unavailable` (the Errors table of the description says what to change) */
      503: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "Retry-After": components["headers"]["Retry-After"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  /**
   * A thumbnail of the report's page 1
   * @description A PNG at most 320 px wide and 40 KB, for a succeeded report (a PDF or pictures). Made on the first request and kept with the report until it is deleted. 202 while queued or processing; the download's 409 and 410 otherwise. See docs/images.md.
   */
  getReportThumbnail: {
    parameters: {
      path: {
        reportID: string;
      };
    };
    responses: {
      /** @description The thumbnail */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "image/png": string;
        };
      };
      /** @description Not ready yet */
      202: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["NotReady"];
        };
      };
      /** @description X-API-Key missing, unknown, wrong or deleted */
      401: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Unauthorized"];
        };
      };
      /** @description An error: `forbidden`, `link_invalid` (the Errors table of the description says what to change) */
      403: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description Unknown, or another account's report */
      404: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description `report_failed` */
      409: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description `report_expired` or `pdf_missing` */
      410: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `rate_limited`, `quota_exceeded`, `account_queue_full` (the Errors table of the description says what to change) */
      429: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "Retry-After": components["headers"]["Retry-After"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `internal_error` (the Errors table of the description says what to change) */
      500: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `queue_full`, `preview_unavailable`, `server_busy`, `storage_unavailable`, `database_unavailable` (the Errors table of the description says what to change) */
      503: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "Retry-After": components["headers"]["Retry-After"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  /**
   * List the account's templates
   * @description Newest first, `limit` per page (default 20, at most 100).
   */
  listTemplates: {
    parameters: {
      query?: {
        limit?: number;
        cursor?: string;
      };
    };
    responses: {
      /** @description Response for status 200 */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": {
            data: components["schemas"]["Template"][];
            /** @description Pass as cursor for the next page; null on the last page */
            next_cursor: string | null;
          };
        };
      };
      /** @description An error: `invalid_json`, `e_invoice_unreadable`, `invalid_cursor`, `invalid_idempotency_key` (the Errors table of the description says what to change) */
      400: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description X-API-Key missing, unknown, wrong or deleted */
      401: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Unauthorized"];
        };
      };
      /** @description An error: `forbidden`, `link_invalid` (the Errors table of the description says what to change) */
      403: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `validation_failed`, `template_render_failed`, `e_invoice_invalid`, `e_invoice_unsupported`, `pdfa_conflict`, `asset_unsafe`, `image_conflict`, `signature_conflict`, `pkcs12_too_large`, `pkcs12_unreadable`, `pkcs12_password_wrong`, `pkcs12_no_private_key`, `certificate_not_valid_now`, `signing_key_unsupported`, `idempotency_key_reused` (the Errors table of the description says what to change) */
      422: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `rate_limited`, `quota_exceeded`, `account_queue_full` (the Errors table of the description says what to change) */
      429: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "Retry-After": components["headers"]["Retry-After"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `internal_error` (the Errors table of the description says what to change) */
      500: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `queue_full`, `preview_unavailable`, `server_busy`, `storage_unavailable`, `database_unavailable` (the Errors table of the description says what to change) */
      503: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "Retry-After": components["headers"]["Retry-After"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  /**
   * Store a template
   * @description Creates a template with its version 1 and answers 201 with `template_id`, `version` and the preflight's `warnings`: characters no installed font has (missing_glyphs), resources the network policy refuses (blocked_resource), and the page count and size of `sample_data` rendered through the same sandbox and Chromium as a report (sample_render, or sample_render_failed). Warnings never refuse a save. `data_schema` (JSON Schema draft 2020-12; `pattern` in RE2 syntax, without backreferences or lookaround) is checked itself and `sample_data` against it, each within the server's --schema-timeout (2 s by default): 422 validation_failed otherwise, naming the place. `options` are the defaults of generation requests by this template (not `encryption`: its passwords are never stored). With an `Idempotency-Key` header, a retry within 24 hours returns the same template instead of creating a second one.
   */
  createTemplate: {
    parameters: {
      header?: {
        "idempotency-key"?: string;
      };
    };
    requestBody: {
      content: {
        "application/json": {
          /** @description A label for people; need not be unique */
          name: string;
          /** @enum {string} */
          engine: "ejs" | "raw";
          /** @description HTML; with engine ejs it may contain EJS tags such as <%= name %>. The same limit as an inline template */
          html_template: string;
          /** @description JSON Schema (draft 2020-12) that the data of every generation request must match; checked when saved (an invalid or unusable schema is 422, its details naming the place, e.g. data_schema.$schema). pattern and patternProperties use RE2 syntax: no backreferences or lookaround. Each check must finish within the server's --schema-timeout (2 s by default): past it, 422 naming data_schema. engine ejs only */
          data_schema?: unknown;
          /** @description Example data: must match data_schema; rendered by the preflight to report page count and size. engine ejs only */
          sample_data?: unknown;
          options?: components["schemas"]["PdfOptions"];
          /** @description Golden samples: a version whose comparison with its samples changed pages becomes the default only once approved (default false) */
          require_approval?: boolean;
        };
      };
    };
    responses: {
      /** @description Response for status 201 */
      201: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          /** @description The new template: /api/v1/templates/{template_id} */
          Location?: string;
          "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
        };
        content: {
          "application/json": {
            /** Format: uuid */
            template_id: string;
            version: number;
            warnings: ({
                /** @enum {string} */
                code: "missing_glyphs" | "blocked_resource" | "sample_render" | "sample_render_failed" | "sample_not_rendered" | "glyph_check_unavailable" | "missing_asset";
                /** @description What the PDF will look like and what to change */
                message: string;
                [key: string]: unknown;
              })[];
          };
        };
      };
      /** @description An error: `invalid_json`, `e_invoice_unreadable`, `invalid_cursor`, `invalid_idempotency_key` (the Errors table of the description says what to change) */
      400: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description X-API-Key missing, unknown, wrong or deleted */
      401: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Unauthorized"];
        };
      };
      /** @description An error: `forbidden`, `link_invalid` (the Errors table of the description says what to change) */
      403: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `request_timeout` (the Errors table of the description says what to change) */
      408: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `report_failed`, `idempotency_replay_unavailable`, `sample_limit_reached` (the Errors table of the description says what to change) */
      409: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `payload_too_large`, `asset_too_large`, `asset_library_full`, `e_invoice_too_large` (the Errors table of the description says what to change) */
      413: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `unsupported_media_type`, `asset_type_unsupported` (the Errors table of the description says what to change) */
      415: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `validation_failed`, `template_render_failed`, `e_invoice_invalid`, `e_invoice_unsupported`, `pdfa_conflict`, `asset_unsafe`, `image_conflict`, `signature_conflict`, `pkcs12_too_large`, `pkcs12_unreadable`, `pkcs12_password_wrong`, `pkcs12_no_private_key`, `certificate_not_valid_now`, `signing_key_unsupported`, `idempotency_key_reused` (the Errors table of the description says what to change) */
      422: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `rate_limited`, `quota_exceeded`, `account_queue_full` (the Errors table of the description says what to change) */
      429: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "Retry-After": components["headers"]["Retry-After"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `internal_error` (the Errors table of the description says what to change) */
      500: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `queue_full`, `preview_unavailable`, `server_busy`, `storage_unavailable`, `database_unavailable` (the Errors table of the description says what to change) */
      503: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "Retry-After": components["headers"]["Retry-After"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  /**
   * Save a new version
   * @description Versions are immutable: every save adds the next number (n+1) with its own html_template, data_schema, sample_data and options (nothing is inherited from the previous version), checked and preflighted as on creation. Generation requests without `template_version` use it from now on, unless the template has require_approval: then only once its comparison is `same` on every golden sample, or it is approved (POST …/versions/{v}/approve). With golden samples the save waits for their comparison (two renders a sample) and answers it in `comparison`.
   */
  createTemplateVersion: {
    parameters: {
      path: {
        templateID: string;
      };
    };
    requestBody: {
      content: {
        "application/json": {
          /** @description HTML; with engine ejs it may contain EJS tags such as <%= name %>. The same limit as an inline template */
          html_template: string;
          /** @description JSON Schema (draft 2020-12) that the data of every generation request must match; checked when saved (an invalid or unusable schema is 422, its details naming the place, e.g. data_schema.$schema). pattern and patternProperties use RE2 syntax: no backreferences or lookaround. Each check must finish within the server's --schema-timeout (2 s by default): past it, 422 naming data_schema. engine ejs only */
          data_schema?: unknown;
          /** @description Example data: must match data_schema; rendered by the preflight to report page count and size. engine ejs only */
          sample_data?: unknown;
          options?: components["schemas"]["PdfOptions"];
        };
      };
    };
    responses: {
      /** @description Response for status 201 */
      201: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": {
            /** Format: uuid */
            template_id: string;
            version: number;
            warnings: ({
                /** @enum {string} */
                code: "missing_glyphs" | "blocked_resource" | "sample_render" | "sample_render_failed" | "sample_not_rendered" | "glyph_check_unavailable" | "missing_asset";
                /** @description What the PDF will look like and what to change */
                message: string;
                [key: string]: unknown;
              })[];
            /** @description The new version compared with the default before it on every golden sample; null without samples, or without a renderer here */
            comparison: ({
              /**
               * @description changed: a page of a sample differs, was added or removed, or a render failed
               * @enum {string}
               */
              status: "same" | "changed";
              /** Format: uuid */
              template_id: string;
              /** @description The version compared (after) */
              version: number;
              /** @description The version it was compared with (before) */
              base: number;
              samples: ({
                  name: string;
                  pages_before: number;
                  pages_after: number;
                  pages: ({
                      page: number;
                      /** @description The share of the page's pixels that differ beyond --golden-tolerance; 1 for a page added or removed */
                      changed_ratio: number;
                      /** @description A PNG of the new page (96 dpi) faded, with its changed pixels in red (GET it with the same key); null for an unchanged page */
                      diff: string | null;
                      /** @description A PNG of the page with the base version; null for an unchanged page */
                      before: string | null;
                      /** @description A PNG of the page with the compared version; null for an unchanged page */
                      after: string | null;
                    })[];
                  /** @description A render of this sample failed with that version (a report failure code) */
                  error?: {
                    version: number;
                    code: string;
                    message: string;
                  };
                })[];
              /** Format: date-time */
              created_at: string;
            }) | null;
          };
        };
      };
      /** @description An error: `invalid_json`, `e_invoice_unreadable`, `invalid_cursor`, `invalid_idempotency_key` (the Errors table of the description says what to change) */
      400: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description X-API-Key missing, unknown, wrong or deleted */
      401: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Unauthorized"];
        };
      };
      /** @description An error: `forbidden`, `link_invalid` (the Errors table of the description says what to change) */
      403: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `not_found`, `route_not_found` (the Errors table of the description says what to change) */
      404: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `request_timeout` (the Errors table of the description says what to change) */
      408: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `payload_too_large`, `asset_too_large`, `asset_library_full`, `e_invoice_too_large` (the Errors table of the description says what to change) */
      413: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `unsupported_media_type`, `asset_type_unsupported` (the Errors table of the description says what to change) */
      415: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `validation_failed`, `template_render_failed`, `e_invoice_invalid`, `e_invoice_unsupported`, `pdfa_conflict`, `asset_unsafe`, `image_conflict`, `signature_conflict`, `pkcs12_too_large`, `pkcs12_unreadable`, `pkcs12_password_wrong`, `pkcs12_no_private_key`, `certificate_not_valid_now`, `signing_key_unsupported`, `idempotency_key_reused` (the Errors table of the description says what to change) */
      422: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `rate_limited`, `quota_exceeded`, `account_queue_full` (the Errors table of the description says what to change) */
      429: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "Retry-After": components["headers"]["Retry-After"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `internal_error` (the Errors table of the description says what to change) */
      500: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `queue_full`, `preview_unavailable`, `server_busy`, `storage_unavailable`, `database_unavailable` (the Errors table of the description says what to change) */
      503: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "Retry-After": components["headers"]["Retry-After"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  /**
   * A template
   * @description The template with its latest version in full and the list of its versions.
   */
  getTemplate: {
    parameters: {
      path: {
        templateID: string;
      };
    };
    responses: {
      /** @description Response for status 200 */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": {
            data: {
              /** Format: uuid */
              template_id: string;
              name: string;
              /** @enum {string} */
              engine: "ejs" | "raw";
              latest_version: number;
              /** @description What generation requests without template_version render: the latest, or with require_approval the last approved version */
              default_version: number;
              require_approval: boolean;
              /** Format: date-time */
              created_at: string;
              /**
               * Format: date-time
               * @description When the template last changed
               */
              updated_at: string;
              latest: components["schemas"]["TemplateVersion"];
              /** @description Every version, newest first */
              versions: {
                  version: number;
                  /** Format: date-time */
                  created_at: string;
                }[];
            };
          };
        };
      };
      /** @description X-API-Key missing, unknown, wrong or deleted */
      401: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Unauthorized"];
        };
      };
      /** @description An error: `forbidden`, `link_invalid` (the Errors table of the description says what to change) */
      403: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `not_found`, `route_not_found` (the Errors table of the description says what to change) */
      404: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `rate_limited`, `quota_exceeded`, `account_queue_full` (the Errors table of the description says what to change) */
      429: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "Retry-After": components["headers"]["Retry-After"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `internal_error` (the Errors table of the description says what to change) */
      500: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `queue_full`, `preview_unavailable`, `server_busy`, `storage_unavailable`, `database_unavailable` (the Errors table of the description says what to change) */
      503: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "Retry-After": components["headers"]["Retry-After"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  /**
   * Delete a template
   * @description Deletes the template and all its versions; generation requests naming it get 404 from now on. Reports already made from it, queued ones included, keep their PDFs and still show its template_id and template_version.
   */
  deleteTemplate: {
    parameters: {
      path: {
        templateID: string;
      };
    };
    responses: {
      /** @description Response for status 200 */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": {
            data: {
              template_id: string;
              /** @constant */
              deleted: true;
            };
          };
        };
      };
      /** @description X-API-Key missing, unknown, wrong or deleted */
      401: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Unauthorized"];
        };
      };
      /** @description An error: `forbidden`, `link_invalid` (the Errors table of the description says what to change) */
      403: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `not_found`, `route_not_found` (the Errors table of the description says what to change) */
      404: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `rate_limited`, `quota_exceeded`, `account_queue_full` (the Errors table of the description says what to change) */
      429: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "Retry-After": components["headers"]["Retry-After"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `internal_error` (the Errors table of the description says what to change) */
      500: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `queue_full`, `preview_unavailable`, `server_busy`, `storage_unavailable`, `database_unavailable` (the Errors table of the description says what to change) */
      503: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "Retry-After": components["headers"]["Retry-After"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  /**
   * Change a template's settings
   * @description `require_approval`: on, a new version whose comparison with the golden samples is `changed` becomes the default only once approved (the default stays the version in use when it was turned on); off, the latest version is the default again. The audit trail records it.
   */
  updateTemplate: {
    parameters: {
      path: {
        templateID: string;
      };
    };
    requestBody: {
      content: {
        "application/json": {
          /** @description Turned on, the default version stays the one in use until a changed version is approved */
          require_approval: boolean;
        };
      };
    };
    responses: {
      /** @description Response for status 200 */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": {
            data: components["schemas"]["Template"];
          };
        };
      };
      /** @description An error: `invalid_json`, `e_invoice_unreadable`, `invalid_cursor`, `invalid_idempotency_key` (the Errors table of the description says what to change) */
      400: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description X-API-Key missing, unknown, wrong or deleted */
      401: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Unauthorized"];
        };
      };
      /** @description An error: `forbidden`, `link_invalid` (the Errors table of the description says what to change) */
      403: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `not_found`, `route_not_found` (the Errors table of the description says what to change) */
      404: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `request_timeout` (the Errors table of the description says what to change) */
      408: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `payload_too_large`, `asset_too_large`, `asset_library_full`, `e_invoice_too_large` (the Errors table of the description says what to change) */
      413: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `unsupported_media_type`, `asset_type_unsupported` (the Errors table of the description says what to change) */
      415: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `validation_failed`, `template_render_failed`, `e_invoice_invalid`, `e_invoice_unsupported`, `pdfa_conflict`, `asset_unsafe`, `image_conflict`, `signature_conflict`, `pkcs12_too_large`, `pkcs12_unreadable`, `pkcs12_password_wrong`, `pkcs12_no_private_key`, `certificate_not_valid_now`, `signing_key_unsupported`, `idempotency_key_reused` (the Errors table of the description says what to change) */
      422: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `rate_limited`, `quota_exceeded`, `account_queue_full` (the Errors table of the description says what to change) */
      429: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "Retry-After": components["headers"]["Retry-After"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `internal_error` (the Errors table of the description says what to change) */
      500: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `queue_full`, `preview_unavailable`, `server_busy`, `storage_unavailable`, `database_unavailable` (the Errors table of the description says what to change) */
      503: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "Retry-After": components["headers"]["Retry-After"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  /**
   * One version of a template
   * @description Exactly as it was saved, with the warnings of its preflight.
   */
  getTemplateVersion: {
    parameters: {
      path: {
        templateID: string;
        version: string;
      };
    };
    responses: {
      /** @description Response for status 200 */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": {
            data: components["schemas"]["TemplateVersion"];
          };
        };
      };
      /** @description X-API-Key missing, unknown, wrong or deleted */
      401: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Unauthorized"];
        };
      };
      /** @description An error: `forbidden`, `link_invalid` (the Errors table of the description says what to change) */
      403: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `not_found`, `route_not_found` (the Errors table of the description says what to change) */
      404: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `rate_limited`, `quota_exceeded`, `account_queue_full` (the Errors table of the description says what to change) */
      429: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "Retry-After": components["headers"]["Retry-After"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `internal_error` (the Errors table of the description says what to change) */
      500: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `queue_full`, `preview_unavailable`, `server_busy`, `storage_unavailable`, `database_unavailable` (the Errors table of the description says what to change) */
      503: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "Retry-After": components["headers"]["Retry-After"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  /**
   * A template's golden samples
   * @description Its named sample data sets, by name, with their data.
   */
  listTemplateSamples: {
    parameters: {
      path: {
        templateID: string;
      };
    };
    responses: {
      /** @description Response for status 200 */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": {
            /** @description By name; at most 20 */
            data: {
                name: string;
                data: unknown;
                /** Format: date-time */
                created_at: string;
              }[];
          };
        };
      };
      /** @description X-API-Key missing, unknown, wrong or deleted */
      401: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Unauthorized"];
        };
      };
      /** @description An error: `forbidden`, `link_invalid` (the Errors table of the description says what to change) */
      403: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `not_found`, `route_not_found` (the Errors table of the description says what to change) */
      404: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `rate_limited`, `quota_exceeded`, `account_queue_full` (the Errors table of the description says what to change) */
      429: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "Retry-After": components["headers"]["Retry-After"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `internal_error` (the Errors table of the description says what to change) */
      500: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `queue_full`, `preview_unavailable`, `server_busy`, `storage_unavailable`, `database_unavailable` (the Errors table of the description says what to change) */
      503: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "Retry-After": components["headers"]["Retry-After"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  /**
   * Save a golden sample
   * @description Stores `data` as a named sample of the template: every new version is compared with the default one on every sample. 201 for a new name, 200 when it replaced the sample of that name. A template keeps at most 20: a 21st name is 409 sample_limit_reached (details.limit).
   */
  saveTemplateSample: {
    parameters: {
      path: {
        templateID: string;
      };
    };
    requestBody: {
      content: {
        "application/json": {
          /** @description 1-64 letters, digits, dots, dashes or underscores; saving under an existing name replaces its data */
          name: string;
          /** @description The data the template renders (a JSON object within the data limits; default {}) */
          data?: unknown;
        };
      };
    };
    responses: {
      /** @description Response for status 200 */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": {
            name: string;
            /** @constant */
            replaced: true;
          };
        };
      };
      /** @description Response for status 201 */
      201: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": {
            name: string;
            /** @constant */
            replaced: false;
          };
        };
      };
      /** @description An error: `invalid_json`, `e_invoice_unreadable`, `invalid_cursor`, `invalid_idempotency_key` (the Errors table of the description says what to change) */
      400: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description X-API-Key missing, unknown, wrong or deleted */
      401: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Unauthorized"];
        };
      };
      /** @description An error: `forbidden`, `link_invalid` (the Errors table of the description says what to change) */
      403: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `not_found`, `route_not_found` (the Errors table of the description says what to change) */
      404: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `request_timeout` (the Errors table of the description says what to change) */
      408: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `report_failed`, `idempotency_replay_unavailable`, `sample_limit_reached` (the Errors table of the description says what to change) */
      409: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `payload_too_large`, `asset_too_large`, `asset_library_full`, `e_invoice_too_large` (the Errors table of the description says what to change) */
      413: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `unsupported_media_type`, `asset_type_unsupported` (the Errors table of the description says what to change) */
      415: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `validation_failed`, `template_render_failed`, `e_invoice_invalid`, `e_invoice_unsupported`, `pdfa_conflict`, `asset_unsafe`, `image_conflict`, `signature_conflict`, `pkcs12_too_large`, `pkcs12_unreadable`, `pkcs12_password_wrong`, `pkcs12_no_private_key`, `certificate_not_valid_now`, `signing_key_unsupported`, `idempotency_key_reused` (the Errors table of the description says what to change) */
      422: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `rate_limited`, `quota_exceeded`, `account_queue_full` (the Errors table of the description says what to change) */
      429: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "Retry-After": components["headers"]["Retry-After"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `internal_error` (the Errors table of the description says what to change) */
      500: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `queue_full`, `preview_unavailable`, `server_busy`, `storage_unavailable`, `database_unavailable` (the Errors table of the description says what to change) */
      503: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "Retry-After": components["headers"]["Retry-After"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  /**
   * Delete a golden sample
   * @description 404 for an unknown name or another account's template.
   */
  deleteTemplateSample: {
    parameters: {
      path: {
        templateID: string;
        name: string;
      };
    };
    responses: {
      /** @description Response for status 200 */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": {
            data: {
              name: string;
              /** @constant */
              deleted: true;
            };
          };
        };
      };
      /** @description X-API-Key missing, unknown, wrong or deleted */
      401: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Unauthorized"];
        };
      };
      /** @description An error: `forbidden`, `link_invalid` (the Errors table of the description says what to change) */
      403: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `not_found`, `route_not_found` (the Errors table of the description says what to change) */
      404: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `rate_limited`, `quota_exceeded`, `account_queue_full` (the Errors table of the description says what to change) */
      429: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "Retry-After": components["headers"]["Retry-After"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `internal_error` (the Errors table of the description says what to change) */
      500: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `queue_full`, `preview_unavailable`, `server_busy`, `storage_unavailable`, `database_unavailable` (the Errors table of the description says what to change) */
      503: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "Retry-After": components["headers"]["Retry-After"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  /**
   * The last comparison of a version
   * @description As its save or POST …/compare answered it; 404 when it was never compared.
   */
  getTemplateComparison: {
    parameters: {
      path: {
        templateID: string;
        version: string;
      };
    };
    responses: {
      /** @description Response for status 200 */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": {
            /**
             * @description changed: a page of a sample differs, was added or removed, or a render failed
             * @enum {string}
             */
            status: "same" | "changed";
            /** Format: uuid */
            template_id: string;
            /** @description The version compared (after) */
            version: number;
            /** @description The version it was compared with (before) */
            base: number;
            samples: ({
                name: string;
                pages_before: number;
                pages_after: number;
                pages: ({
                    page: number;
                    /** @description The share of the page's pixels that differ beyond --golden-tolerance; 1 for a page added or removed */
                    changed_ratio: number;
                    /** @description A PNG of the new page (96 dpi) faded, with its changed pixels in red (GET it with the same key); null for an unchanged page */
                    diff: string | null;
                    /** @description A PNG of the page with the base version; null for an unchanged page */
                    before: string | null;
                    /** @description A PNG of the page with the compared version; null for an unchanged page */
                    after: string | null;
                  })[];
                /** @description A render of this sample failed with that version (a report failure code) */
                error?: {
                  version: number;
                  code: string;
                  message: string;
                };
              })[];
            /** Format: date-time */
            created_at: string;
          };
        };
      };
      /** @description X-API-Key missing, unknown, wrong or deleted */
      401: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Unauthorized"];
        };
      };
      /** @description An error: `forbidden`, `link_invalid` (the Errors table of the description says what to change) */
      403: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `not_found`, `route_not_found` (the Errors table of the description says what to change) */
      404: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `rate_limited`, `quota_exceeded`, `account_queue_full` (the Errors table of the description says what to change) */
      429: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "Retry-After": components["headers"]["Retry-After"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `internal_error` (the Errors table of the description says what to change) */
      500: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `queue_full`, `preview_unavailable`, `server_busy`, `storage_unavailable`, `database_unavailable` (the Errors table of the description says what to change) */
      503: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "Retry-After": components["headers"]["Retry-After"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  /**
   * Compare a version with another on the golden samples
   * @description Renders every sample of the template with the version and with `base` (default: the template's default version), through the same sandbox and Chromium as reports, and compares them page by page on pictures drawn at 96 dpi: `changed_ratio` is the share of a page's pixels whose colour differs by more than --golden-tolerance (0.1 of 255 by default, above anti-aliasing noise); a page added or removed is changed (ratio 1). Changed pages link a diff PNG (the new page faded, its changed pixels in red) and the two pages. Synchronous: each sample costs two renders (about a second) while the request waits, at most 20 samples. 503 preview_unavailable on an instance that renders nothing. Saving a version runs the same comparison.
   */
  compareTemplateVersion: {
    parameters: {
      path: {
        templateID: string;
        version: string;
      };
    };
    requestBody: {
      content: {
        "application/json": {
          /** @description The version to compare with (default: the template's default version) */
          base?: number;
        };
      };
    };
    responses: {
      /** @description Response for status 200 */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": {
            /**
             * @description changed: a page of a sample differs, was added or removed, or a render failed
             * @enum {string}
             */
            status: "same" | "changed";
            /** Format: uuid */
            template_id: string;
            /** @description The version compared (after) */
            version: number;
            /** @description The version it was compared with (before) */
            base: number;
            samples: ({
                name: string;
                pages_before: number;
                pages_after: number;
                pages: ({
                    page: number;
                    /** @description The share of the page's pixels that differ beyond --golden-tolerance; 1 for a page added or removed */
                    changed_ratio: number;
                    /** @description A PNG of the new page (96 dpi) faded, with its changed pixels in red (GET it with the same key); null for an unchanged page */
                    diff: string | null;
                    /** @description A PNG of the page with the base version; null for an unchanged page */
                    before: string | null;
                    /** @description A PNG of the page with the compared version; null for an unchanged page */
                    after: string | null;
                  })[];
                /** @description A render of this sample failed with that version (a report failure code) */
                error?: {
                  version: number;
                  code: string;
                  message: string;
                };
              })[];
            /** Format: date-time */
            created_at: string;
          };
        };
      };
      /** @description An error: `invalid_json`, `e_invoice_unreadable`, `invalid_cursor`, `invalid_idempotency_key` (the Errors table of the description says what to change) */
      400: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description X-API-Key missing, unknown, wrong or deleted */
      401: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Unauthorized"];
        };
      };
      /** @description An error: `forbidden`, `link_invalid` (the Errors table of the description says what to change) */
      403: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `not_found`, `route_not_found` (the Errors table of the description says what to change) */
      404: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `request_timeout` (the Errors table of the description says what to change) */
      408: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `payload_too_large`, `asset_too_large`, `asset_library_full`, `e_invoice_too_large` (the Errors table of the description says what to change) */
      413: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `unsupported_media_type`, `asset_type_unsupported` (the Errors table of the description says what to change) */
      415: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `validation_failed`, `template_render_failed`, `e_invoice_invalid`, `e_invoice_unsupported`, `pdfa_conflict`, `asset_unsafe`, `image_conflict`, `signature_conflict`, `pkcs12_too_large`, `pkcs12_unreadable`, `pkcs12_password_wrong`, `pkcs12_no_private_key`, `certificate_not_valid_now`, `signing_key_unsupported`, `idempotency_key_reused` (the Errors table of the description says what to change) */
      422: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `rate_limited`, `quota_exceeded`, `account_queue_full` (the Errors table of the description says what to change) */
      429: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "Retry-After": components["headers"]["Retry-After"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `internal_error` (the Errors table of the description says what to change) */
      500: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `queue_full`, `preview_unavailable`, `server_busy`, `storage_unavailable`, `database_unavailable` (the Errors table of the description says what to change) */
      503: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "Retry-After": components["headers"]["Retry-After"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  /**
   * Approve a version
   * @description Makes the version the template's default_version while require_approval is on (generation requests without template_version render it), whatever its comparison found; the audit trail records it (template.version_approved).
   */
  approveTemplateVersion: {
    parameters: {
      path: {
        templateID: string;
        version: string;
      };
    };
    responses: {
      /** @description Response for status 200 */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": {
            data: components["schemas"]["Template"];
          };
        };
      };
      /** @description X-API-Key missing, unknown, wrong or deleted */
      401: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Unauthorized"];
        };
      };
      /** @description An error: `forbidden`, `link_invalid` (the Errors table of the description says what to change) */
      403: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `not_found`, `route_not_found` (the Errors table of the description says what to change) */
      404: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `rate_limited`, `quota_exceeded`, `account_queue_full` (the Errors table of the description says what to change) */
      429: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "Retry-After": components["headers"]["Retry-After"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `internal_error` (the Errors table of the description says what to change) */
      500: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `queue_full`, `preview_unavailable`, `server_busy`, `storage_unavailable`, `database_unavailable` (the Errors table of the description says what to change) */
      503: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "Retry-After": components["headers"]["Retry-After"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  /**
   * A picture of a comparison
   * @description A PNG a comparison links (diff, before, after); named by its sha256, so it never changes.
   */
  getComparisonPicture: {
    parameters: {
      path: {
        templateID: string;
        picture: string;
      };
    };
    responses: {
      /** @description The picture */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "image/png": string;
        };
      };
      /** @description X-API-Key missing, unknown, wrong or deleted */
      401: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Unauthorized"];
        };
      };
      /** @description An error: `forbidden`, `link_invalid` (the Errors table of the description says what to change) */
      403: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `not_found`, `route_not_found` (the Errors table of the description says what to change) */
      404: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `rate_limited`, `quota_exceeded`, `account_queue_full` (the Errors table of the description says what to change) */
      429: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "Retry-After": components["headers"]["Retry-After"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `internal_error` (the Errors table of the description says what to change) */
      500: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `queue_full`, `preview_unavailable`, `server_busy`, `storage_unavailable`, `database_unavailable` (the Errors table of the description says what to change) */
      503: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "Retry-After": components["headers"]["Retry-After"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  /**
   * List the account's assets
   * @description Newest first, `limit` per page (default 20, at most 100).
   */
  listAssets: {
    parameters: {
      query?: {
        limit?: number;
        cursor?: string;
      };
    };
    responses: {
      /** @description Response for status 200 */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": {
            data: components["schemas"]["Asset"][];
            /** @description Pass as cursor for the next page; null on the last page */
            next_cursor: string | null;
          };
        };
      };
      /** @description An error: `invalid_json`, `e_invoice_unreadable`, `invalid_cursor`, `invalid_idempotency_key` (the Errors table of the description says what to change) */
      400: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description X-API-Key missing, unknown, wrong or deleted */
      401: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Unauthorized"];
        };
      };
      /** @description An error: `forbidden`, `link_invalid` (the Errors table of the description says what to change) */
      403: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `validation_failed`, `template_render_failed`, `e_invoice_invalid`, `e_invoice_unsupported`, `pdfa_conflict`, `asset_unsafe`, `image_conflict`, `signature_conflict`, `pkcs12_too_large`, `pkcs12_unreadable`, `pkcs12_password_wrong`, `pkcs12_no_private_key`, `certificate_not_valid_now`, `signing_key_unsupported`, `idempotency_key_reused` (the Errors table of the description says what to change) */
      422: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `rate_limited`, `quota_exceeded`, `account_queue_full` (the Errors table of the description says what to change) */
      429: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "Retry-After": components["headers"]["Retry-After"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `internal_error` (the Errors table of the description says what to change) */
      500: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `queue_full`, `preview_unavailable`, `server_busy`, `storage_unavailable`, `database_unavailable` (the Errors table of the description says what to change) */
      503: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "Retry-After": components["headers"]["Retry-After"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  /**
   * Upload an asset
   * @description Stores a logo, font or style sheet for the account's templates, which use it as `asset:<name>` in `src`/`href` attributes, CSS `url()`, `@font-face` and `@import`, in the page and in header_template/footer_template. Send JSON `{name, content_base64, type?}` or multipart/form-data with a `file` part (and an optional `name` field). Its type is read from its bytes: PNG, JPEG, WebP, SVG, WOFF2, WOFF, TTF, OTF, or CSS (text declared text/css or named *.css); anything else, or bytes that disagree with the declared type, is 415 asset_type_unsupported. An SVG with a script, an on* event attribute, a javascript: URL, foreignObject, entities or a reference outside the file is refused (422 asset_unsafe, naming the element), never rewritten. Over --asset-max-size: 413 asset_too_large; over the account's --asset-account-max-size: 413 asset_library_full. Uploading a name that exists replaces its bytes (200, same id, `replaced: true`): reports print with the bytes the name has when they render, so a report still queued uses the new ones, and PDFs already made stay as they are.
   */
  createAsset: {
    requestBody: {
      content: {
        "application/json": {
          /** @description The asset's name (1 to 128 letters, digits, dots, dashes and underscores, starting with a letter or digit (e.g. logo.png)); a multipart upload may omit it to use the file's name */
          name?: string;
          /** @description JSON upload: the file's bytes, base64 (standard alphabet, padded) */
          content_base64?: string;
          /** @description The declared media type (optional): when given it must agree with what the bytes are, or the upload is refused */
          type?: string;
          /** @description multipart/form-data upload: the part named `file` (sent as a file, not a text field) */
          file?: {
            filename: string;
            type: string;
            content_base64: string;
          };
        };
        "multipart/form-data": {
          /** @description The asset's name (1 to 128 letters, digits, dots, dashes and underscores, starting with a letter or digit (e.g. logo.png)); a multipart upload may omit it to use the file's name */
          name?: string;
          /** @description JSON upload: the file's bytes, base64 (standard alphabet, padded) */
          content_base64?: string;
          /** @description The declared media type (optional): when given it must agree with what the bytes are, or the upload is refused */
          type?: string;
          /** @description multipart/form-data upload: the part named `file` (sent as a file, not a text field) */
          file?: {
            filename: string;
            type: string;
            content_base64: string;
          };
        };
      };
    };
    responses: {
      /** @description Response for status 200 */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": {
            data: components["schemas"]["Asset"];
            /** @description true: the name existed and its bytes were replaced */
            replaced: boolean;
          };
        };
      };
      /** @description Response for status 201 */
      201: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": {
            data: components["schemas"]["Asset"];
            /** @description false: a new asset */
            replaced: boolean;
          };
        };
      };
      /** @description An error: `invalid_json`, `e_invoice_unreadable`, `invalid_cursor`, `invalid_idempotency_key` (the Errors table of the description says what to change) */
      400: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description X-API-Key missing, unknown, wrong or deleted */
      401: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Unauthorized"];
        };
      };
      /** @description An error: `forbidden`, `link_invalid` (the Errors table of the description says what to change) */
      403: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `request_timeout` (the Errors table of the description says what to change) */
      408: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `payload_too_large`, `asset_too_large`, `asset_library_full`, `e_invoice_too_large` (the Errors table of the description says what to change) */
      413: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `unsupported_media_type`, `asset_type_unsupported` (the Errors table of the description says what to change) */
      415: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `validation_failed`, `template_render_failed`, `e_invoice_invalid`, `e_invoice_unsupported`, `pdfa_conflict`, `asset_unsafe`, `image_conflict`, `signature_conflict`, `pkcs12_too_large`, `pkcs12_unreadable`, `pkcs12_password_wrong`, `pkcs12_no_private_key`, `certificate_not_valid_now`, `signing_key_unsupported`, `idempotency_key_reused` (the Errors table of the description says what to change) */
      422: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `rate_limited`, `quota_exceeded`, `account_queue_full` (the Errors table of the description says what to change) */
      429: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "Retry-After": components["headers"]["Retry-After"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `internal_error` (the Errors table of the description says what to change) */
      500: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `queue_full`, `preview_unavailable`, `server_busy`, `storage_unavailable`, `database_unavailable` (the Errors table of the description says what to change) */
      503: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "Retry-After": components["headers"]["Retry-After"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  /**
   * An asset
   * @description Its name, type, size, sha256 and dates; another account's asset is 404.
   */
  getAsset: {
    parameters: {
      path: {
        assetID: string;
      };
    };
    responses: {
      /** @description Response for status 200 */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": {
            data: components["schemas"]["Asset"];
          };
        };
      };
      /** @description X-API-Key missing, unknown, wrong or deleted */
      401: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Unauthorized"];
        };
      };
      /** @description An error: `forbidden`, `link_invalid` (the Errors table of the description says what to change) */
      403: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `not_found`, `route_not_found` (the Errors table of the description says what to change) */
      404: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `rate_limited`, `quota_exceeded`, `account_queue_full` (the Errors table of the description says what to change) */
      429: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "Retry-After": components["headers"]["Retry-After"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `internal_error` (the Errors table of the description says what to change) */
      500: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `queue_full`, `preview_unavailable`, `server_busy`, `storage_unavailable`, `database_unavailable` (the Errors table of the description says what to change) */
      503: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "Retry-After": components["headers"]["Retry-After"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  /**
   * Delete an asset
   * @description Removes the asset and its bytes. Reports already made keep their PDFs; a report still queued that uses it fails with asset_not_found.
   */
  deleteAsset: {
    parameters: {
      path: {
        assetID: string;
      };
    };
    responses: {
      /** @description Response for status 200 */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": {
            data: {
              asset_id: string;
              name: string;
              /** @constant */
              deleted: true;
            };
          };
        };
      };
      /** @description X-API-Key missing, unknown, wrong or deleted */
      401: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Unauthorized"];
        };
      };
      /** @description An error: `forbidden`, `link_invalid` (the Errors table of the description says what to change) */
      403: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `not_found`, `route_not_found` (the Errors table of the description says what to change) */
      404: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `rate_limited`, `quota_exceeded`, `account_queue_full` (the Errors table of the description says what to change) */
      429: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "Retry-After": components["headers"]["Retry-After"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `internal_error` (the Errors table of the description says what to change) */
      500: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `queue_full`, `preview_unavailable`, `server_busy`, `storage_unavailable`, `database_unavailable` (the Errors table of the description says what to change) */
      503: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "Retry-After": components["headers"]["Retry-After"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  /**
   * Download an asset
   * @description The stored bytes, with the asset's media type, as an attachment.
   */
  getAssetContent: {
    parameters: {
      path: {
        assetID: string;
      };
    };
    responses: {
      /** @description The asset's bytes, with its media type as Content-Type */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "image/png": string;
          "image/jpeg": string;
          "image/webp": string;
          "image/svg+xml": string;
          "font/woff2": string;
          "font/woff": string;
          "font/ttf": string;
          "font/otf": string;
          "text/css": string;
        };
      };
      /** @description X-API-Key missing, unknown, wrong or deleted */
      401: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Unauthorized"];
        };
      };
      /** @description An error: `forbidden`, `link_invalid` (the Errors table of the description says what to change) */
      403: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `not_found`, `route_not_found` (the Errors table of the description says what to change) */
      404: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `rate_limited`, `quota_exceeded`, `account_queue_full` (the Errors table of the description says what to change) */
      429: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "Retry-After": components["headers"]["Retry-After"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `internal_error` (the Errors table of the description says what to change) */
      500: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `queue_full`, `preview_unavailable`, `server_busy`, `storage_unavailable`, `database_unavailable` (the Errors table of the description says what to change) */
      503: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "Retry-After": components["headers"]["Retry-After"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  /**
   * List the account's access keys
   * @description Newest first, with each key's scopes, expiry, quota and last use. Never includes key values or hashes.
   */
  listAccessKeys: {
    responses: {
      /** @description Response for status 200 */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": {
            data: components["schemas"]["AccessKey"][];
          };
        };
      };
      /** @description X-API-Key missing, unknown, wrong or deleted */
      401: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Unauthorized"];
        };
      };
      /** @description An error: `forbidden`, `link_invalid` (the Errors table of the description says what to change) */
      403: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `rate_limited`, `quota_exceeded`, `account_queue_full` (the Errors table of the description says what to change) */
      429: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "Retry-After": components["headers"]["Retry-After"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `internal_error` (the Errors table of the description says what to change) */
      500: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `queue_full`, `preview_unavailable`, `server_busy`, `storage_unavailable`, `database_unavailable` (the Errors table of the description says what to change) */
      503: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "Retry-After": components["headers"]["Retry-After"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  /**
   * Create an access key
   * @description The key belongs to the caller's account. Its value is returned once, in `data`; only an argon2id hash is stored. `scopes` defaults to exactly the caller's; asking for a scope the caller lacks is 403 `forbidden`, an unknown scope 422 listing the valid ones. `expires_at` (RFC 3339, in the future) ends the key at that second; `max_reports_per_day` caps its submissions per UTC day. With an `Idempotency-Key` header, a retry within 24 hours returns the same key (see Idempotency keys above). Recorded as access_key.created.
   */
  createAccessKey: {
    parameters: {
      header?: {
        "idempotency-key"?: string;
      };
    };
    requestBody: {
      content: {
        "application/json": {
          /** @description What the key is for, e.g. billing-service */
          name: string;
          /** @description What the key may do. Omitted: exactly the scopes of the key creating it; it can never grant a scope it lacks (403). Valid: `reports:write` (Submit reports (generate and merge) and delete them.); `reports:read` (Read reports: status, list, download links.); `templates:write` (Create, change and delete stored templates.); `templates:read` (Read stored templates.); `assets:write` (Upload, replace and delete the account's assets (logos, fonts, style sheets).); `assets:read` (List the account's assets and download them.); `keys:manage` (Manage access keys, the webhook signing secret, and read the audit trail.); `signing:manage` (Upload, list and delete the account's signing identities (PKCS#12 keys for options.signature).); `e_invoices:validate` (Check incoming e-invoices (UBL, CII, Factur-X/ZUGFeRD) by the EN 16931, XRechnung and Peppol rules; reads and stores no account data.); `e_invoices:render` (Print incoming e-invoices readable (UBL, CII, Factur-X/ZUGFeRD): each is checked and queued as a report, counted like generate-pdf-async.); `schedules:manage` (Create, list, change, pause and delete the account's schedules (stored templates rendered on a cron schedule), and read their runs.); `destinations:manage` (Create, list, change, test and delete the account's delivery destinations (S3, SFTP, e-mail). Naming one in options.deliver needs only reports:write.). */
          scopes?: string[];
          /** @description RFC 3339 date-time after which the key is refused (401) like a deleted one; must be in the future. Omitted: never expires. */
          expires_at?: string | null;
          /** @description Reports (generated and merged) the key may submit per UTC day; beyond it 429 quota_exceeded with Retry-After until the next UTC midnight. null or omitted: no quota. */
          max_reports_per_day?: number | null;
        };
      };
    };
    responses: {
      /** @description Response for status 201 */
      201: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
        };
        content: {
          "application/json": components["schemas"]["CreatedAccessKey"];
        };
      };
      /** @description An error: `invalid_json`, `e_invoice_unreadable`, `invalid_cursor`, `invalid_idempotency_key` (the Errors table of the description says what to change) */
      400: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description X-API-Key missing, unknown, wrong or deleted */
      401: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Unauthorized"];
        };
      };
      /** @description An error: `forbidden`, `link_invalid` (the Errors table of the description says what to change) */
      403: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `request_timeout` (the Errors table of the description says what to change) */
      408: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `report_failed`, `idempotency_replay_unavailable`, `sample_limit_reached` (the Errors table of the description says what to change) */
      409: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `payload_too_large`, `asset_too_large`, `asset_library_full`, `e_invoice_too_large` (the Errors table of the description says what to change) */
      413: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `unsupported_media_type`, `asset_type_unsupported` (the Errors table of the description says what to change) */
      415: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `validation_failed`, `template_render_failed`, `e_invoice_invalid`, `e_invoice_unsupported`, `pdfa_conflict`, `asset_unsafe`, `image_conflict`, `signature_conflict`, `pkcs12_too_large`, `pkcs12_unreadable`, `pkcs12_password_wrong`, `pkcs12_no_private_key`, `certificate_not_valid_now`, `signing_key_unsupported`, `idempotency_key_reused` (the Errors table of the description says what to change) */
      422: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `rate_limited`, `quota_exceeded`, `account_queue_full` (the Errors table of the description says what to change) */
      429: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "Retry-After": components["headers"]["Retry-After"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `internal_error` (the Errors table of the description says what to change) */
      500: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `queue_full`, `preview_unavailable`, `server_busy`, `storage_unavailable`, `database_unavailable` (the Errors table of the description says what to change) */
      503: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "Retry-After": components["headers"]["Retry-After"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  /**
   * Delete an access key
   * @description Irreversible; the key is rejected (401) from the next request on. A caller may delete the key it is using. A key acts only on keys within its own scopes: a target holding a scope the caller lacks is 403 `forbidden` naming them. Recorded as access_key.deleted.
   */
  deleteAccessKey: {
    parameters: {
      path: {
        accessKeyID: string;
      };
    };
    responses: {
      /** @description Response for status 200 */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": {
            data: {
              id: string;
              /** @constant */
              deleted: true;
            };
          };
        };
      };
      /** @description X-API-Key missing, unknown, wrong or deleted */
      401: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Unauthorized"];
        };
      };
      /** @description An error: `forbidden`, `link_invalid` (the Errors table of the description says what to change) */
      403: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `not_found`, `route_not_found` (the Errors table of the description says what to change) */
      404: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `rate_limited`, `quota_exceeded`, `account_queue_full` (the Errors table of the description says what to change) */
      429: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "Retry-After": components["headers"]["Retry-After"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `internal_error` (the Errors table of the description says what to change) */
      500: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `queue_full`, `preview_unavailable`, `server_busy`, `storage_unavailable`, `database_unavailable` (the Errors table of the description says what to change) */
      503: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "Retry-After": components["headers"]["Retry-After"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  /**
   * Change an access key's daily quota
   * @description Sets `max_reports_per_day` (null removes the quota); it applies from the next submission, counting what the key already submitted today. A key acts only on keys within its own scopes: a target holding a scope the caller lacks is 403 `forbidden` naming them. Recorded as access_key.updated.
   */
  updateAccessKey: {
    parameters: {
      path: {
        accessKeyID: string;
      };
    };
    requestBody: {
      content: {
        "application/json": {
          /** @description Reports (generated and merged) the key may submit per UTC day; beyond it 429 quota_exceeded with Retry-After until the next UTC midnight. null or omitted: no quota. */
          max_reports_per_day: number | null;
        };
      };
    };
    responses: {
      /** @description Response for status 200 */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": {
            data: components["schemas"]["AccessKey"];
          };
        };
      };
      /** @description An error: `invalid_json`, `e_invoice_unreadable`, `invalid_cursor`, `invalid_idempotency_key` (the Errors table of the description says what to change) */
      400: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description X-API-Key missing, unknown, wrong or deleted */
      401: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Unauthorized"];
        };
      };
      /** @description An error: `forbidden`, `link_invalid` (the Errors table of the description says what to change) */
      403: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `not_found`, `route_not_found` (the Errors table of the description says what to change) */
      404: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `request_timeout` (the Errors table of the description says what to change) */
      408: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `payload_too_large`, `asset_too_large`, `asset_library_full`, `e_invoice_too_large` (the Errors table of the description says what to change) */
      413: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `unsupported_media_type`, `asset_type_unsupported` (the Errors table of the description says what to change) */
      415: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `validation_failed`, `template_render_failed`, `e_invoice_invalid`, `e_invoice_unsupported`, `pdfa_conflict`, `asset_unsafe`, `image_conflict`, `signature_conflict`, `pkcs12_too_large`, `pkcs12_unreadable`, `pkcs12_password_wrong`, `pkcs12_no_private_key`, `certificate_not_valid_now`, `signing_key_unsupported`, `idempotency_key_reused` (the Errors table of the description says what to change) */
      422: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `rate_limited`, `quota_exceeded`, `account_queue_full` (the Errors table of the description says what to change) */
      429: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "Retry-After": components["headers"]["Retry-After"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `internal_error` (the Errors table of the description says what to change) */
      500: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `queue_full`, `preview_unavailable`, `server_busy`, `storage_unavailable`, `database_unavailable` (the Errors table of the description says what to change) */
      503: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "Retry-After": components["headers"]["Retry-After"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  /**
   * Rotate an access key's value
   * @description Returns a new value for the same key id, scopes, expiry and quota. The old value keeps working for `grace_seconds` (0, the default, to 604800 = 7 days), then is refused (401). Rotating again during a grace period ends the older value at once. Send `{}` for no grace. A key acts only on keys within its own scopes: a target holding a scope the caller lacks is 403 `forbidden` naming them. Recorded as access_key.rotated.
   */
  rotateAccessKey: {
    parameters: {
      path: {
        accessKeyID: string;
      };
    };
    requestBody: {
      content: {
        "application/json": {
          /** @description How long the old value keeps working, 0 (the default: it stops at once) to 604800 (7 days) */
          grace_seconds?: number;
        };
      };
    };
    responses: {
      /** @description Response for status 200 */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": {
            /** @description The key's new value: shown only this once */
            data: string;
            key: components["schemas"]["AccessKey"];
            /**
             * Format: date-time
             * @description Until when the old value still works (now, for grace 0)
             */
            previous_valid_until: string;
          };
        };
      };
      /** @description An error: `invalid_json`, `e_invoice_unreadable`, `invalid_cursor`, `invalid_idempotency_key` (the Errors table of the description says what to change) */
      400: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description X-API-Key missing, unknown, wrong or deleted */
      401: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Unauthorized"];
        };
      };
      /** @description An error: `forbidden`, `link_invalid` (the Errors table of the description says what to change) */
      403: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `not_found`, `route_not_found` (the Errors table of the description says what to change) */
      404: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `request_timeout` (the Errors table of the description says what to change) */
      408: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `payload_too_large`, `asset_too_large`, `asset_library_full`, `e_invoice_too_large` (the Errors table of the description says what to change) */
      413: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `unsupported_media_type`, `asset_type_unsupported` (the Errors table of the description says what to change) */
      415: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `validation_failed`, `template_render_failed`, `e_invoice_invalid`, `e_invoice_unsupported`, `pdfa_conflict`, `asset_unsafe`, `image_conflict`, `signature_conflict`, `pkcs12_too_large`, `pkcs12_unreadable`, `pkcs12_password_wrong`, `pkcs12_no_private_key`, `certificate_not_valid_now`, `signing_key_unsupported`, `idempotency_key_reused` (the Errors table of the description says what to change) */
      422: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `rate_limited`, `quota_exceeded`, `account_queue_full` (the Errors table of the description says what to change) */
      429: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "Retry-After": components["headers"]["Retry-After"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `internal_error` (the Errors table of the description says what to change) */
      500: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `queue_full`, `preview_unavailable`, `server_busy`, `storage_unavailable`, `database_unavailable` (the Errors table of the description says what to change) */
      503: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "Retry-After": components["headers"]["Retry-After"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  /**
   * The account's webhook signing secret
   * @description Every webhook event of the account is signed with this secret (Standard Webhooks, HMAC-SHA256). It is created on the first call. Needs the keys:manage scope.
   */
  getWebhookSettings: {
    responses: {
      /** @description Response for status 200 */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["WebhookSettings"];
        };
      };
      /** @description X-API-Key missing, unknown, wrong or deleted */
      401: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Unauthorized"];
        };
      };
      /** @description An error: `forbidden`, `link_invalid` (the Errors table of the description says what to change) */
      403: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `rate_limited`, `quota_exceeded`, `account_queue_full` (the Errors table of the description says what to change) */
      429: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "Retry-After": components["headers"]["Retry-After"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `internal_error` (the Errors table of the description says what to change) */
      500: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `queue_full`, `preview_unavailable`, `server_busy`, `storage_unavailable`, `database_unavailable` (the Errors table of the description says what to change) */
      503: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "Retry-After": components["headers"]["Retry-After"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  /**
   * Rotate the webhook signing secret
   * @description Replaces the secret. For 24 hours events carry two signatures (one per secret, space-separated in webhook-signature, as the standard allows), so receivers still holding the old secret keep accepting events while they switch. Send `{}` as the body. Recorded as webhook_secret.rotated.
   */
  rotateWebhookSecret: {
    /** @description An empty JSON object: {} */
    requestBody: {
      content: {
        "application/json": Record<string, never>;
      };
    };
    responses: {
      /** @description Response for status 200 */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["WebhookSettings"];
        };
      };
      /** @description An error: `invalid_json`, `e_invoice_unreadable`, `invalid_cursor`, `invalid_idempotency_key` (the Errors table of the description says what to change) */
      400: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description X-API-Key missing, unknown, wrong or deleted */
      401: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Unauthorized"];
        };
      };
      /** @description An error: `forbidden`, `link_invalid` (the Errors table of the description says what to change) */
      403: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `request_timeout` (the Errors table of the description says what to change) */
      408: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `payload_too_large`, `asset_too_large`, `asset_library_full`, `e_invoice_too_large` (the Errors table of the description says what to change) */
      413: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `unsupported_media_type`, `asset_type_unsupported` (the Errors table of the description says what to change) */
      415: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `validation_failed`, `template_render_failed`, `e_invoice_invalid`, `e_invoice_unsupported`, `pdfa_conflict`, `asset_unsafe`, `image_conflict`, `signature_conflict`, `pkcs12_too_large`, `pkcs12_unreadable`, `pkcs12_password_wrong`, `pkcs12_no_private_key`, `certificate_not_valid_now`, `signing_key_unsupported`, `idempotency_key_reused` (the Errors table of the description says what to change) */
      422: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `rate_limited`, `quota_exceeded`, `account_queue_full` (the Errors table of the description says what to change) */
      429: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "Retry-After": components["headers"]["Retry-After"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `internal_error` (the Errors table of the description says what to change) */
      500: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `queue_full`, `preview_unavailable`, `server_busy`, `storage_unavailable`, `database_unavailable` (the Errors table of the description says what to change) */
      503: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "Retry-After": components["headers"]["Retry-After"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  /**
   * Usage of the account per day or per key
   * @description Reports submitted, succeeded and failed, pages, bytes and render time of the account's reports, per UTC day (`group_by=day`, the default: every day of the range, zeros included) or per submitting key (`group_by=key`). A report counts on the day it was submitted; pages, bytes and render time count successful reports. The range is whole UTC days, from and to included: by default the last 30 days, at most 366. Usage is kept in a daily roll-up written with each report's status change, so it stays after the report is deleted or its PDF expires. A from after to, a range longer than allowed, an unreadable date or an unknown group_by is a 422 saying which.
   */
  getUsage: {
    parameters: {
      query?: {
        from?: string;
        to?: string;
        group_by?: "day" | "key";
      };
    };
    responses: {
      /** @description Response for status 200 */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Usage"];
        };
      };
      /** @description X-API-Key missing, unknown, wrong or deleted */
      401: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Unauthorized"];
        };
      };
      /** @description An error: `forbidden`, `link_invalid` (the Errors table of the description says what to change) */
      403: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `validation_failed`, `template_render_failed`, `e_invoice_invalid`, `e_invoice_unsupported`, `pdfa_conflict`, `asset_unsafe`, `image_conflict`, `signature_conflict`, `pkcs12_too_large`, `pkcs12_unreadable`, `pkcs12_password_wrong`, `pkcs12_no_private_key`, `certificate_not_valid_now`, `signing_key_unsupported`, `idempotency_key_reused` (the Errors table of the description says what to change) */
      422: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `rate_limited`, `quota_exceeded`, `account_queue_full` (the Errors table of the description says what to change) */
      429: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "Retry-After": components["headers"]["Retry-After"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `internal_error` (the Errors table of the description says what to change) */
      500: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `queue_full`, `preview_unavailable`, `server_busy`, `storage_unavailable`, `database_unavailable` (the Errors table of the description says what to change) */
      503: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "Retry-After": components["headers"]["Retry-After"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  /**
   * List the account's audit events
   * @description Newest first, `limit` per page. Records access_key.created, access_key.updated, access_key.deleted, access_key.rotated, webhook_secret.rotated, dashboard.sign_in and dashboard.sign_in_failed, each with the acting key, the client address, the time and the target. Kept 90 days (--audit-retention). Needs the keys:manage scope.
   */
  listAuditEvents: {
    parameters: {
      query?: {
        limit?: number;
        cursor?: string;
      };
    };
    responses: {
      /** @description Response for status 200 */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": {
            data: components["schemas"]["AuditEvent"][];
            /** @description Pass as cursor for the next page; null on the last page */
            next_cursor: string | null;
          };
        };
      };
      /** @description An error: `invalid_json`, `e_invoice_unreadable`, `invalid_cursor`, `invalid_idempotency_key` (the Errors table of the description says what to change) */
      400: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description X-API-Key missing, unknown, wrong or deleted */
      401: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Unauthorized"];
        };
      };
      /** @description An error: `forbidden`, `link_invalid` (the Errors table of the description says what to change) */
      403: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `validation_failed`, `template_render_failed`, `e_invoice_invalid`, `e_invoice_unsupported`, `pdfa_conflict`, `asset_unsafe`, `image_conflict`, `signature_conflict`, `pkcs12_too_large`, `pkcs12_unreadable`, `pkcs12_password_wrong`, `pkcs12_no_private_key`, `certificate_not_valid_now`, `signing_key_unsupported`, `idempotency_key_reused` (the Errors table of the description says what to change) */
      422: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `rate_limited`, `quota_exceeded`, `account_queue_full` (the Errors table of the description says what to change) */
      429: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "Retry-After": components["headers"]["Retry-After"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `internal_error` (the Errors table of the description says what to change) */
      500: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `queue_full`, `preview_unavailable`, `server_busy`, `storage_unavailable`, `database_unavailable` (the Errors table of the description says what to change) */
      503: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "Retry-After": components["headers"]["Retry-After"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  /**
   * List the account's signing identities
   * @description Newest first. Needs signing:manage.
   */
  listSigningIdentities: {
    responses: {
      /** @description Response for status 200 */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": {
            data: components["schemas"]["SigningIdentity"][];
          };
        };
      };
      /** @description X-API-Key missing, unknown, wrong or deleted */
      401: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Unauthorized"];
        };
      };
      /** @description An error: `forbidden`, `link_invalid` (the Errors table of the description says what to change) */
      403: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `rate_limited`, `quota_exceeded`, `account_queue_full` (the Errors table of the description says what to change) */
      429: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "Retry-After": components["headers"]["Retry-After"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `internal_error` (the Errors table of the description says what to change) */
      500: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `queue_full`, `preview_unavailable`, `server_busy`, `storage_unavailable`, `database_unavailable` (the Errors table of the description says what to change) */
      503: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "Retry-After": components["headers"]["Retry-After"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  /**
   * Store a signing identity
   * @description Checks a PKCS#12 file and stores its key and certificate chain for options.signature. 422 with a code of its own for each problem: pkcs12_password_wrong, pkcs12_no_private_key, certificate_not_valid_now (expired or not yet valid), signing_key_unsupported (not RSA 2048+ or ECDSA P-256/P-384), pkcs12_too_large (over 2 MB), pkcs12_unreadable (not PKCS#12, or legacy RC2/3DES encryption). The private key is stored only sealed (AES-256-GCM under a key derived from the server secret) and is never returned. Recorded as signing_identity.created. Needs signing:manage.
   */
  createSigningIdentity: {
    requestBody: {
      content: {
        "application/json": {
          /** @description Your name for it, e.g. Invoices 2026 */
          name: string;
          /** @description A PKCS#12 file (.p12/.pfx), base64: the private key (RSA of 2048 bits or more, or ECDSA P-256/P-384) with its certificate and, best, its chain. At most 2 MB; AES encryption (OpenSSL 3's default) */
          p12_base64: string;
          /** @description The PKCS#12 file's password. Used once to open it; never stored */
          password: string;
        };
      };
    };
    responses: {
      /** @description A signing identity. Its private key is stored sealed and is never returned. */
      201: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["SigningIdentity"];
        };
      };
      /** @description An error: `invalid_json`, `e_invoice_unreadable`, `invalid_cursor`, `invalid_idempotency_key` (the Errors table of the description says what to change) */
      400: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description X-API-Key missing, unknown, wrong or deleted */
      401: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Unauthorized"];
        };
      };
      /** @description An error: `forbidden`, `link_invalid` (the Errors table of the description says what to change) */
      403: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `request_timeout` (the Errors table of the description says what to change) */
      408: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `payload_too_large`, `asset_too_large`, `asset_library_full`, `e_invoice_too_large` (the Errors table of the description says what to change) */
      413: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `unsupported_media_type`, `asset_type_unsupported` (the Errors table of the description says what to change) */
      415: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `validation_failed`, `template_render_failed`, `e_invoice_invalid`, `e_invoice_unsupported`, `pdfa_conflict`, `asset_unsafe`, `image_conflict`, `signature_conflict`, `pkcs12_too_large`, `pkcs12_unreadable`, `pkcs12_password_wrong`, `pkcs12_no_private_key`, `certificate_not_valid_now`, `signing_key_unsupported`, `idempotency_key_reused` (the Errors table of the description says what to change) */
      422: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `rate_limited`, `quota_exceeded`, `account_queue_full` (the Errors table of the description says what to change) */
      429: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "Retry-After": components["headers"]["Retry-After"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `internal_error` (the Errors table of the description says what to change) */
      500: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `queue_full`, `preview_unavailable`, `server_busy`, `storage_unavailable`, `database_unavailable` (the Errors table of the description says what to change) */
      503: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "Retry-After": components["headers"]["Retry-After"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  /**
   * A signing identity
   * @description 404 for an unknown id or another account's. Needs signing:manage.
   */
  getSigningIdentity: {
    parameters: {
      path: {
        identityID: string;
      };
    };
    responses: {
      /** @description Response for status 200 */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": {
            data: components["schemas"]["SigningIdentity"];
          };
        };
      };
      /** @description X-API-Key missing, unknown, wrong or deleted */
      401: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Unauthorized"];
        };
      };
      /** @description An error: `forbidden`, `link_invalid` (the Errors table of the description says what to change) */
      403: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `not_found`, `route_not_found` (the Errors table of the description says what to change) */
      404: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `rate_limited`, `quota_exceeded`, `account_queue_full` (the Errors table of the description says what to change) */
      429: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "Retry-After": components["headers"]["Retry-After"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `internal_error` (the Errors table of the description says what to change) */
      500: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `queue_full`, `preview_unavailable`, `server_busy`, `storage_unavailable`, `database_unavailable` (the Errors table of the description says what to change) */
      503: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "Retry-After": components["headers"]["Retry-After"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  /**
   * Delete a signing identity
   * @description Deletes the identity and its sealed key. Queued reports that name it fail with signing_identity_unavailable; signed PDFs stay valid. Recorded as signing_identity.deleted. Needs signing:manage.
   */
  deleteSigningIdentity: {
    parameters: {
      path: {
        identityID: string;
      };
    };
    responses: {
      /** @description Response for status 200 */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": {
            data: {
              identity_id: string;
              /** @constant */
              deleted: true;
            };
          };
        };
      };
      /** @description X-API-Key missing, unknown, wrong or deleted */
      401: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Unauthorized"];
        };
      };
      /** @description An error: `forbidden`, `link_invalid` (the Errors table of the description says what to change) */
      403: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `not_found`, `route_not_found` (the Errors table of the description says what to change) */
      404: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `rate_limited`, `quota_exceeded`, `account_queue_full` (the Errors table of the description says what to change) */
      429: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "Retry-After": components["headers"]["Retry-After"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `internal_error` (the Errors table of the description says what to change) */
      500: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `queue_full`, `preview_unavailable`, `server_busy`, `storage_unavailable`, `database_unavailable` (the Errors table of the description says what to change) */
      503: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "Retry-After": components["headers"]["Retry-After"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  /**
   * Check an incoming e-invoice
   * @description Checks an e-invoice by our implementation of the official rules: EN 16931 (BR-*, BR-CO-*, BR-CL-*, the VAT category rules) always, XRechnung (BR-DE-*) and Peppol BIS Billing 3.0 (PEPPOL-EN16931-R*) when the document's specification identifier names them or `rules` asks for them. Send the XML (UBL 2.1 Invoice or CreditNote, or UN/CEFACT CII) as `application/xml`, a Factur-X/ZUGFeRD PDF as `application/pdf` (its embedded factur-x.xml, zugferd-invoice.xml, ZUGFeRD-invoice.xml or xrechnung.xml is checked), a multipart/form-data part `file`, or JSON `{xml_base64 | pdf_base64, rules?}`. The answer is 200 whether the invoice is valid or not: `valid`, and each broken rule with an XPath to where. A body that is not XML or is hostile (a DOCTYPE or entities, nesting past 64, an attribute over 4096 characters) is 400 e_invoice_unreadable; over 10 MB of XML 413 e_invoice_too_large; XML that is no invoice, or a PDF without an embedded invoice, 422 e_invoice_unsupported.
   */
  validateEInvoice: {
    parameters: {
      query?: {
        rules?: string;
      };
    };
    requestBody: {
      content: {
        "application/xml": string;
        "application/pdf": string;
        "multipart/form-data": {
          /**
           * Format: binary
           * @description The XML or the Factur-X/ZUGFeRD PDF
           */
          file: string;
          /** @description The rule sets to apply, comma-separated: `en16931`, `xrechnung`, `peppol` (EN 16931 is always applied). By default, those the document's specification identifier (BT-24: UBL CustomizationID, CII guideline parameter) names. */
          rules?: string;
        };
        "application/json": {
          /** @description The e-invoice's XML, base64 */
          xml_base64?: string;
          /** @description A Factur-X/ZUGFeRD PDF, base64 */
          pdf_base64?: string;
          /** @description The rule sets to apply, comma-separated: `en16931`, `xrechnung`, `peppol` (EN 16931 is always applied). By default, those the document's specification identifier (BT-24: UBL CustomizationID, CII guideline parameter) names. */
          rules?: string | (("en16931" | "xrechnung" | "peppol")[]);
        };
      };
    };
    responses: {
      /** @description Response for status 200 */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": {
            data: components["schemas"]["EInvoiceValidation"];
          };
        };
      };
      /** @description An error: `invalid_json`, `e_invoice_unreadable`, `invalid_cursor`, `invalid_idempotency_key` (the Errors table of the description says what to change) */
      400: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description X-API-Key missing, unknown, wrong or deleted */
      401: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Unauthorized"];
        };
      };
      /** @description An error: `forbidden`, `link_invalid` (the Errors table of the description says what to change) */
      403: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `request_timeout` (the Errors table of the description says what to change) */
      408: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `payload_too_large`, `asset_too_large`, `asset_library_full`, `e_invoice_too_large` (the Errors table of the description says what to change) */
      413: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `unsupported_media_type`, `asset_type_unsupported` (the Errors table of the description says what to change) */
      415: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `validation_failed`, `template_render_failed`, `e_invoice_invalid`, `e_invoice_unsupported`, `pdfa_conflict`, `asset_unsafe`, `image_conflict`, `signature_conflict`, `pkcs12_too_large`, `pkcs12_unreadable`, `pkcs12_password_wrong`, `pkcs12_no_private_key`, `certificate_not_valid_now`, `signing_key_unsupported`, `idempotency_key_reused` (the Errors table of the description says what to change) */
      422: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `rate_limited`, `quota_exceeded`, `account_queue_full` (the Errors table of the description says what to change) */
      429: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "Retry-After": components["headers"]["Retry-After"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `internal_error` (the Errors table of the description says what to change) */
      500: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `queue_full`, `preview_unavailable`, `server_busy`, `storage_unavailable`, `database_unavailable` (the Errors table of the description says what to change) */
      503: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "Retry-After": components["headers"]["Retry-After"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  /**
   * Print an incoming e-invoice readable
   * @description Takes the same documents as `POST /e-invoices/validate` (UBL, CII, or a Factur-X/ZUGFeRD PDF: raw body, multipart `file`, or JSON `{xml_base64 | pdf_base64}`), checks it by the same rules, and queues an ordinary report that prints it: seller and buyer, dates, references, the lines, allowances and charges, the VAT breakdown, the totals, payment terms and account, notes, the supporting documents, and last the validation result. Answers 202 `{report_id}` like generate-pdf-async; GET, download, webhooks and retention are those of any report. Supporting documents the XML embeds (BG-24) become attachments of the PDF. `language` (`de`, `en`, `fr`) picks the labels and the number and date format; `archive: true` makes a PDF/A-3b carrying the original XML unchanged; `template_id` prints with a stored template that sees `e_invoice`, `validation`, `language`, `locale` and `labels`. With a raw body, the settings go in the query. Refusals are those of validate (400 e_invoice_unreadable, 413 e_invoice_too_large, 422 e_invoice_unsupported), 422 validation_failed for a bad setting, and those of generate-pdf-async (404 an unknown template_id; 429, 503 and 507 for the quota, the queue and the disk).
   */
  renderEInvoice: {
    parameters: {
      query?: {
        rules?: string;
        language?: string;
        archive?: string;
        template_id?: string;
        template_version?: string;
        webhook_url?: string;
      };
    };
    requestBody: {
      content: {
        "application/xml": string;
        "application/pdf": string;
        "multipart/form-data": {
          /**
           * Format: binary
           * @description The XML or the Factur-X/ZUGFeRD PDF
           */
          file: string;
          /**
           * @description The language of the labels; amounts and dates are formatted for it (de-DE, en-GB, fr-FR)
           * @default en
           * @enum {string}
           */
          language?: "de" | "en" | "fr";
          /**
           * @description PDF/A-3b with the original XML embedded unchanged, byte for byte (named after the invoice number)
           * @default false
           */
          archive?: boolean;
          /** @description A stored template to print with instead of the built-in layout; it sees the same data (docs/e-invoices.md) */
          template_id?: string;
          /** @description With template_id: its version (default the latest) */
          template_version?: number;
          /** @description The rule sets to apply, comma-separated: `en16931`, `xrechnung`, `peppol` (EN 16931 is always applied). By default, those the document's specification identifier (BT-24: UBL CustomizationID, CII guideline parameter) names. */
          rules?: string;
          /** @description A webhook for the report */
          webhook_url?: string;
        };
        "application/json": {
          /** @description The e-invoice's XML, base64 */
          xml_base64?: string;
          /** @description A Factur-X/ZUGFeRD PDF, base64 */
          pdf_base64?: string;
          /**
           * @description The language of the labels; amounts and dates are formatted for it (de-DE, en-GB, fr-FR)
           * @default en
           * @enum {string}
           */
          language?: "de" | "en" | "fr";
          /**
           * @description PDF/A-3b with the original XML embedded unchanged, byte for byte (named after the invoice number)
           * @default false
           */
          archive?: boolean;
          /** @description A stored template to print with instead of the built-in layout; it sees the same data (docs/e-invoices.md) */
          template_id?: string;
          /** @description With template_id: its version (default the latest) */
          template_version?: number;
          /** @description The rule sets to apply, comma-separated: `en16931`, `xrechnung`, `peppol` (EN 16931 is always applied). By default, those the document's specification identifier (BT-24: UBL CustomizationID, CII guideline parameter) names. */
          rules?: string;
          /** @description As generate-pdf-async's */
          webhook?: {
            url?: string;
          };
        };
      };
    };
    responses: {
      /** @description Response for status 202 */
      202: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": {
            /** Format: uuid */
            report_id: string;
          };
        };
      };
      /** @description An error: `invalid_json`, `e_invoice_unreadable`, `invalid_cursor`, `invalid_idempotency_key` (the Errors table of the description says what to change) */
      400: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description X-API-Key missing, unknown, wrong or deleted */
      401: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Unauthorized"];
        };
      };
      /** @description An error: `forbidden`, `link_invalid` (the Errors table of the description says what to change) */
      403: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `not_found`, `route_not_found` (the Errors table of the description says what to change) */
      404: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `request_timeout` (the Errors table of the description says what to change) */
      408: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `payload_too_large`, `asset_too_large`, `asset_library_full`, `e_invoice_too_large` (the Errors table of the description says what to change) */
      413: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `unsupported_media_type`, `asset_type_unsupported` (the Errors table of the description says what to change) */
      415: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `validation_failed`, `template_render_failed`, `e_invoice_invalid`, `e_invoice_unsupported`, `pdfa_conflict`, `asset_unsafe`, `image_conflict`, `signature_conflict`, `pkcs12_too_large`, `pkcs12_unreadable`, `pkcs12_password_wrong`, `pkcs12_no_private_key`, `certificate_not_valid_now`, `signing_key_unsupported`, `idempotency_key_reused` (the Errors table of the description says what to change) */
      422: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `rate_limited`, `quota_exceeded`, `account_queue_full` (the Errors table of the description says what to change) */
      429: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "Retry-After": components["headers"]["Retry-After"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `internal_error` (the Errors table of the description says what to change) */
      500: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `queue_full`, `preview_unavailable`, `server_busy`, `storage_unavailable`, `database_unavailable` (the Errors table of the description says what to change) */
      503: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "Retry-After": components["headers"]["Retry-After"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `storage_full` (the Errors table of the description says what to change) */
      507: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "Retry-After": components["headers"]["Retry-After"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  /**
   * List the account's schedules
   * @description Newest first, `limit` per page (default 20, at most 100).
   */
  listSchedules: {
    parameters: {
      query?: {
        limit?: number;
        cursor?: string;
      };
    };
    responses: {
      /** @description Response for status 200 */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": {
            data: components["schemas"]["Schedule"][];
            /** @description Pass as cursor for the next page; null on the last page */
            next_cursor: string | null;
          };
        };
      };
      /** @description An error: `invalid_json`, `e_invoice_unreadable`, `invalid_cursor`, `invalid_idempotency_key` (the Errors table of the description says what to change) */
      400: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description X-API-Key missing, unknown, wrong or deleted */
      401: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Unauthorized"];
        };
      };
      /** @description An error: `forbidden`, `link_invalid` (the Errors table of the description says what to change) */
      403: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `validation_failed`, `template_render_failed`, `e_invoice_invalid`, `e_invoice_unsupported`, `pdfa_conflict`, `asset_unsafe`, `image_conflict`, `signature_conflict`, `pkcs12_too_large`, `pkcs12_unreadable`, `pkcs12_password_wrong`, `pkcs12_no_private_key`, `certificate_not_valid_now`, `signing_key_unsupported`, `idempotency_key_reused` (the Errors table of the description says what to change) */
      422: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `rate_limited`, `quota_exceeded`, `account_queue_full` (the Errors table of the description says what to change) */
      429: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "Retry-After": components["headers"]["Retry-After"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `internal_error` (the Errors table of the description says what to change) */
      500: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `queue_full`, `preview_unavailable`, `server_busy`, `storage_unavailable`, `database_unavailable` (the Errors table of the description says what to change) */
      503: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "Retry-After": components["headers"]["Retry-After"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  /**
   * Create a schedule
   * @description Renders the stored template `template_id` at every tick of `cron` in `timezone`, as `POST /generate-pdf-async` with `template_id` would: with `data`, or with the JSON object fetched from `data_url` when the tick comes, and `options`; `deliver` becomes the report's `options.deliver`, `webhook` its webhook (and the target of `schedule.run_failed`). A bad cron expression or an unknown time zone is 422 validation_failed naming the field and the accepted forms; an unknown template (or version) 404; `data` failing the template's data_schema 422. Recorded as schedule.created.
   */
  createSchedule: {
    requestBody: {
      content: {
        "application/json": {
          /** @description A name for people */
          name: string;
          /** @description When it runs: five cron fields "minute hour day-of-month month day-of-week" ("0 6 * * *": 06:00 daily), six with seconds first, or @hourly, @daily, @weekly, @monthly, @yearly; read in `timezone` */
          cron: string;
          /** @description An IANA time zone name ("Europe/Berlin"); daylight saving time is followed. Default UTC */
          timezone?: string;
          /**
           * Format: uuid
           * @description A stored template of this account (POST /templates)
           */
          template_id: string;
          /** @description Its version to render; default: its latest at each run */
          template_version?: number;
          /** @description The template's data, the same at every run (not with data_url) */
          data?: Record<string, never>;
          /** @description Fetched (GET) at each run, it answers the template's data as a JSON object, at most --data-max-size bytes; public https only, unless its host is on the operator's --webhook-allow-hosts. Not with data */
          data_url?: string;
          options?: components["schemas"]["PdfOptions"];
          /** @description Where each report goes (options.deliver of the report it makes) */
          deliver?: {
              /** @description A destination of this account (POST /destinations) */
              destination_id: string;
              [key: string]: unknown;
            }[];
          webhook?: components["schemas"]["WebhookRequest"];
          /** @enum {string} */
          catch_up?: "none" | "last";
          /** @description A paused schedule runs no tick; resuming waits for the next tick (catch_up does not apply) */
          paused?: boolean;
        };
      };
    };
    responses: {
      /** @description Response for status 201 */
      201: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": {
            data: components["schemas"]["Schedule"];
          };
        };
      };
      /** @description An error: `invalid_json`, `e_invoice_unreadable`, `invalid_cursor`, `invalid_idempotency_key` (the Errors table of the description says what to change) */
      400: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description X-API-Key missing, unknown, wrong or deleted */
      401: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Unauthorized"];
        };
      };
      /** @description An error: `forbidden`, `link_invalid` (the Errors table of the description says what to change) */
      403: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `not_found`, `route_not_found` (the Errors table of the description says what to change) */
      404: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `request_timeout` (the Errors table of the description says what to change) */
      408: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `payload_too_large`, `asset_too_large`, `asset_library_full`, `e_invoice_too_large` (the Errors table of the description says what to change) */
      413: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `unsupported_media_type`, `asset_type_unsupported` (the Errors table of the description says what to change) */
      415: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `validation_failed`, `template_render_failed`, `e_invoice_invalid`, `e_invoice_unsupported`, `pdfa_conflict`, `asset_unsafe`, `image_conflict`, `signature_conflict`, `pkcs12_too_large`, `pkcs12_unreadable`, `pkcs12_password_wrong`, `pkcs12_no_private_key`, `certificate_not_valid_now`, `signing_key_unsupported`, `idempotency_key_reused` (the Errors table of the description says what to change) */
      422: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `rate_limited`, `quota_exceeded`, `account_queue_full` (the Errors table of the description says what to change) */
      429: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "Retry-After": components["headers"]["Retry-After"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `internal_error` (the Errors table of the description says what to change) */
      500: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `queue_full`, `preview_unavailable`, `server_busy`, `storage_unavailable`, `database_unavailable` (the Errors table of the description says what to change) */
      503: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "Retry-After": components["headers"]["Retry-After"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  /**
   * A schedule
   * @description With `next_run_at`, its next tick. Another account's schedule is 404.
   */
  getSchedule: {
    parameters: {
      path: {
        scheduleID: string;
      };
    };
    responses: {
      /** @description Response for status 200 */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": {
            data: components["schemas"]["Schedule"];
          };
        };
      };
      /** @description X-API-Key missing, unknown, wrong or deleted */
      401: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Unauthorized"];
        };
      };
      /** @description An error: `forbidden`, `link_invalid` (the Errors table of the description says what to change) */
      403: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `not_found`, `route_not_found` (the Errors table of the description says what to change) */
      404: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `rate_limited`, `quota_exceeded`, `account_queue_full` (the Errors table of the description says what to change) */
      429: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "Retry-After": components["headers"]["Retry-After"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `internal_error` (the Errors table of the description says what to change) */
      500: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `queue_full`, `preview_unavailable`, `server_busy`, `storage_unavailable`, `database_unavailable` (the Errors table of the description says what to change) */
      503: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "Retry-After": components["headers"]["Retry-After"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  /**
   * Delete a schedule
   * @description Its runs go with it; the reports they made stay. Recorded as schedule.deleted.
   */
  deleteSchedule: {
    parameters: {
      path: {
        scheduleID: string;
      };
    };
    responses: {
      /** @description Response for status 200 */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": {
            data: {
              schedule_id: string;
              /** @constant */
              deleted: true;
            };
          };
        };
      };
      /** @description X-API-Key missing, unknown, wrong or deleted */
      401: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Unauthorized"];
        };
      };
      /** @description An error: `forbidden`, `link_invalid` (the Errors table of the description says what to change) */
      403: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `not_found`, `route_not_found` (the Errors table of the description says what to change) */
      404: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `rate_limited`, `quota_exceeded`, `account_queue_full` (the Errors table of the description says what to change) */
      429: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "Retry-After": components["headers"]["Retry-After"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `internal_error` (the Errors table of the description says what to change) */
      500: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `queue_full`, `preview_unavailable`, `server_busy`, `storage_unavailable`, `database_unavailable` (the Errors table of the description says what to change) */
      503: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "Retry-After": components["headers"]["Retry-After"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  /**
   * Change, pause or resume a schedule
   * @description Changes the fields given; `null` clears an optional one. `paused: true` pauses it (schedule.paused), `paused: false` resumes it from the next tick after now (schedule.resumed: ticks while paused are never caught up); any other change is schedule.updated. A new `cron` or `timezone` starts from its next tick.
   */
  updateSchedule: {
    parameters: {
      path: {
        scheduleID: string;
      };
    };
    requestBody: {
      content: {
        "application/json": {
          /** @description A name for people */
          name?: string;
          /** @description When it runs: five cron fields "minute hour day-of-month month day-of-week" ("0 6 * * *": 06:00 daily), six with seconds first, or @hourly, @daily, @weekly, @monthly, @yearly; read in `timezone` */
          cron?: string;
          /** @description An IANA time zone name ("Europe/Berlin"); daylight saving time is followed. Default UTC */
          timezone?: string;
          /**
           * Format: uuid
           * @description A stored template of this account (POST /templates)
           */
          template_id?: string;
          /** @description Its version to render; default: its latest at each run */
          template_version?: number | null;
          /** @description The template's data, the same at every run (not with data_url) */
          data?: Record<string, never> | null;
          /** @description Fetched (GET) at each run, it answers the template's data as a JSON object, at most --data-max-size bytes; public https only, unless its host is on the operator's --webhook-allow-hosts. Not with data */
          data_url?: string | null;
          options?: components["schemas"]["PdfOptions"] | null;
          /** @description Where each report goes (options.deliver of the report it makes) */
          deliver?: {
              /** @description A destination of this account (POST /destinations) */
              destination_id: string;
              [key: string]: unknown;
            }[] | null;
          webhook?: components["schemas"]["WebhookRequest"] | null;
          /** @enum {string} */
          catch_up?: "none" | "last";
          /** @description A paused schedule runs no tick; resuming waits for the next tick (catch_up does not apply) */
          paused?: boolean;
        };
      };
    };
    responses: {
      /** @description Response for status 200 */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": {
            data: components["schemas"]["Schedule"];
          };
        };
      };
      /** @description An error: `invalid_json`, `e_invoice_unreadable`, `invalid_cursor`, `invalid_idempotency_key` (the Errors table of the description says what to change) */
      400: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description X-API-Key missing, unknown, wrong or deleted */
      401: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Unauthorized"];
        };
      };
      /** @description An error: `forbidden`, `link_invalid` (the Errors table of the description says what to change) */
      403: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `not_found`, `route_not_found` (the Errors table of the description says what to change) */
      404: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `request_timeout` (the Errors table of the description says what to change) */
      408: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `payload_too_large`, `asset_too_large`, `asset_library_full`, `e_invoice_too_large` (the Errors table of the description says what to change) */
      413: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `unsupported_media_type`, `asset_type_unsupported` (the Errors table of the description says what to change) */
      415: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `validation_failed`, `template_render_failed`, `e_invoice_invalid`, `e_invoice_unsupported`, `pdfa_conflict`, `asset_unsafe`, `image_conflict`, `signature_conflict`, `pkcs12_too_large`, `pkcs12_unreadable`, `pkcs12_password_wrong`, `pkcs12_no_private_key`, `certificate_not_valid_now`, `signing_key_unsupported`, `idempotency_key_reused` (the Errors table of the description says what to change) */
      422: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `rate_limited`, `quota_exceeded`, `account_queue_full` (the Errors table of the description says what to change) */
      429: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "Retry-After": components["headers"]["Retry-After"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `internal_error` (the Errors table of the description says what to change) */
      500: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `queue_full`, `preview_unavailable`, `server_busy`, `storage_unavailable`, `database_unavailable` (the Errors table of the description says what to change) */
      503: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "Retry-After": components["headers"]["Retry-After"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  /**
   * A schedule's runs
   * @description Each tick that ran, newest first (pages like `GET /reports`): the report it queued (`report_id`, and `report_status` now), or why it failed (`error`), the state of its schedule.run_failed event, and the report's `deliveries` when the schedule delivers (`deliver`).
   */
  listScheduleRuns: {
    parameters: {
      query?: {
        limit?: number;
        cursor?: string;
      };
      path: {
        scheduleID: string;
      };
    };
    responses: {
      /** @description Response for status 200 */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": {
            data: components["schemas"]["ScheduleRun"][];
            /** @description Pass as cursor for the next page; null on the last page */
            next_cursor: string | null;
          };
        };
      };
      /** @description An error: `invalid_json`, `e_invoice_unreadable`, `invalid_cursor`, `invalid_idempotency_key` (the Errors table of the description says what to change) */
      400: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description X-API-Key missing, unknown, wrong or deleted */
      401: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Unauthorized"];
        };
      };
      /** @description An error: `forbidden`, `link_invalid` (the Errors table of the description says what to change) */
      403: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `not_found`, `route_not_found` (the Errors table of the description says what to change) */
      404: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `validation_failed`, `template_render_failed`, `e_invoice_invalid`, `e_invoice_unsupported`, `pdfa_conflict`, `asset_unsafe`, `image_conflict`, `signature_conflict`, `pkcs12_too_large`, `pkcs12_unreadable`, `pkcs12_password_wrong`, `pkcs12_no_private_key`, `certificate_not_valid_now`, `signing_key_unsupported`, `idempotency_key_reused` (the Errors table of the description says what to change) */
      422: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `rate_limited`, `quota_exceeded`, `account_queue_full` (the Errors table of the description says what to change) */
      429: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "Retry-After": components["headers"]["Retry-After"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `internal_error` (the Errors table of the description says what to change) */
      500: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `queue_full`, `preview_unavailable`, `server_busy`, `storage_unavailable`, `database_unavailable` (the Errors table of the description says what to change) */
      503: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "Retry-After": components["headers"]["Retry-After"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  /**
   * List the account's destinations
   * @description Newest first, without secrets. Needs destinations:manage.
   */
  listDestinations: {
    responses: {
      /** @description Response for status 200 */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": {
            data: ({
                /** Format: uuid */
                id: string;
                name: string;
                /** @enum {string} */
                type: "s3" | "sftp" | "email";
                /** Format: date-time */
                created_at: string;
                /** Format: date-time */
                updated_at: string;
                s3?: {
                  endpoint: string;
                  region: string;
                  bucket: string;
                  prefix: string;
                  access_key_id: string;
                };
                sftp?: {
                  host: string;
                  port: number;
                  user: string;
                  host_key: string;
                  directory: string;
                  /** @enum {string} */
                  auth: "private_key" | "password";
                };
                email?: {
                  to: string[];
                };
              })[];
          };
        };
      };
      /** @description X-API-Key missing, unknown, wrong or deleted */
      401: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Unauthorized"];
        };
      };
      /** @description An error: `forbidden`, `link_invalid` (the Errors table of the description says what to change) */
      403: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `rate_limited`, `quota_exceeded`, `account_queue_full` (the Errors table of the description says what to change) */
      429: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "Retry-After": components["headers"]["Retry-After"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `internal_error` (the Errors table of the description says what to change) */
      500: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `queue_full`, `preview_unavailable`, `server_busy`, `storage_unavailable`, `database_unavailable` (the Errors table of the description says what to change) */
      503: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "Retry-After": components["headers"]["Retry-After"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  /**
   * Create a destination
   * @description A place reports are delivered to (options.deliver): `type` s3, sftp or email, with the object of that name. An s3 endpoint or sftp host must be public (hosts on the operator's --destination-allow-hosts may be private, loopback or plain http); a cloud metadata address never is (422 validation_failed naming the field). An sftp host_key is pinned. Secrets (secret_access_key, private_key, password) are stored sealed and never returned. Recorded as destination.created. Needs destinations:manage.
   */
  createDestination: {
    requestBody: {
      content: {
        "application/json": {
          /** @description Your name for it, e.g. archive */
          name: string;
          /** @enum {string} */
          type: "s3" | "sftp" | "email";
          s3?: {
            /** @description The S3-compatible endpoint, e.g. https://s3.eu-central-1.amazonaws.com or https://minio.example.com; default: AWS S3 in the region. Path-style addressing */
            endpoint?: string;
            /** @description The region requests are signed for; default us-east-1 */
            region?: string;
            /** @description The bucket */
            bucket: string;
            /** @description Put before every object key, e.g. reports/; default none */
            prefix?: string;
            access_key_id: string;
            /** @description Never returned */
            secret_access_key: string;
          };
          sftp?: {
            /** @description The SFTP server's host name or address */
            host: string;
            /** @default 22 */
            port?: number;
            user: string;
            /** @description The server's public host key, as ssh-keyscan or the server's /etc/ssh/ssh_host_*_key.pub prints it (ssh-ed25519 AAAA…). Pinned: a server showing another key is refused */
            host_key: string;
            /** @description Where files go on the server; default: the user's login directory */
            directory?: string;
            /** @description An OpenSSH or PEM private key (not passphrase-protected); or password. Never returned */
            private_key?: string;
            /** @description Or private_key. Never returned */
            password?: string;
          };
          email?: {
            /** @description The recipients */
            to: string[];
          };
        };
      };
    };
    responses: {
      /** @description Response for status 201 */
      201: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": {
            /** @description A destination. Its secrets (secret_access_key, private_key, password) are stored sealed and never returned. */
            data: {
              /** Format: uuid */
              id: string;
              name: string;
              /** @enum {string} */
              type: "s3" | "sftp" | "email";
              /** Format: date-time */
              created_at: string;
              /** Format: date-time */
              updated_at: string;
              s3?: {
                endpoint: string;
                region: string;
                bucket: string;
                prefix: string;
                access_key_id: string;
              };
              sftp?: {
                host: string;
                port: number;
                user: string;
                host_key: string;
                directory: string;
                /** @enum {string} */
                auth: "private_key" | "password";
              };
              email?: {
                to: string[];
              };
            };
          };
        };
      };
      /** @description An error: `invalid_json`, `e_invoice_unreadable`, `invalid_cursor`, `invalid_idempotency_key` (the Errors table of the description says what to change) */
      400: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description X-API-Key missing, unknown, wrong or deleted */
      401: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Unauthorized"];
        };
      };
      /** @description An error: `forbidden`, `link_invalid` (the Errors table of the description says what to change) */
      403: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `request_timeout` (the Errors table of the description says what to change) */
      408: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `payload_too_large`, `asset_too_large`, `asset_library_full`, `e_invoice_too_large` (the Errors table of the description says what to change) */
      413: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `unsupported_media_type`, `asset_type_unsupported` (the Errors table of the description says what to change) */
      415: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `validation_failed`, `template_render_failed`, `e_invoice_invalid`, `e_invoice_unsupported`, `pdfa_conflict`, `asset_unsafe`, `image_conflict`, `signature_conflict`, `pkcs12_too_large`, `pkcs12_unreadable`, `pkcs12_password_wrong`, `pkcs12_no_private_key`, `certificate_not_valid_now`, `signing_key_unsupported`, `idempotency_key_reused` (the Errors table of the description says what to change) */
      422: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `rate_limited`, `quota_exceeded`, `account_queue_full` (the Errors table of the description says what to change) */
      429: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "Retry-After": components["headers"]["Retry-After"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `internal_error` (the Errors table of the description says what to change) */
      500: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `queue_full`, `preview_unavailable`, `server_busy`, `storage_unavailable`, `database_unavailable` (the Errors table of the description says what to change) */
      503: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "Retry-After": components["headers"]["Retry-After"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  /**
   * A destination
   * @description 404 for an unknown id or another account's. Needs destinations:manage.
   */
  getDestination: {
    parameters: {
      path: {
        destinationID: string;
      };
    };
    responses: {
      /** @description Response for status 200 */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": {
            /** @description A destination. Its secrets (secret_access_key, private_key, password) are stored sealed and never returned. */
            data: {
              /** Format: uuid */
              id: string;
              name: string;
              /** @enum {string} */
              type: "s3" | "sftp" | "email";
              /** Format: date-time */
              created_at: string;
              /** Format: date-time */
              updated_at: string;
              s3?: {
                endpoint: string;
                region: string;
                bucket: string;
                prefix: string;
                access_key_id: string;
              };
              sftp?: {
                host: string;
                port: number;
                user: string;
                host_key: string;
                directory: string;
                /** @enum {string} */
                auth: "private_key" | "password";
              };
              email?: {
                to: string[];
              };
            };
          };
        };
      };
      /** @description X-API-Key missing, unknown, wrong or deleted */
      401: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Unauthorized"];
        };
      };
      /** @description An error: `forbidden`, `link_invalid` (the Errors table of the description says what to change) */
      403: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `not_found`, `route_not_found` (the Errors table of the description says what to change) */
      404: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `rate_limited`, `quota_exceeded`, `account_queue_full` (the Errors table of the description says what to change) */
      429: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "Retry-After": components["headers"]["Retry-After"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `internal_error` (the Errors table of the description says what to change) */
      500: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `queue_full`, `preview_unavailable`, `server_busy`, `storage_unavailable`, `database_unavailable` (the Errors table of the description says what to change) */
      503: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "Retry-After": components["headers"]["Retry-After"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  /**
   * Delete a destination
   * @description Deletes it and its sealed secrets. Deliveries to it still pending fail with `the destination was deleted`. Recorded as destination.deleted. Needs destinations:manage.
   */
  deleteDestination: {
    parameters: {
      path: {
        destinationID: string;
      };
    };
    responses: {
      /** @description Response for status 200 */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": {
            data: {
              id: string;
              /** @constant */
              deleted: true;
            };
          };
        };
      };
      /** @description X-API-Key missing, unknown, wrong or deleted */
      401: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Unauthorized"];
        };
      };
      /** @description An error: `forbidden`, `link_invalid` (the Errors table of the description says what to change) */
      403: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `not_found`, `route_not_found` (the Errors table of the description says what to change) */
      404: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `rate_limited`, `quota_exceeded`, `account_queue_full` (the Errors table of the description says what to change) */
      429: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "Retry-After": components["headers"]["Retry-After"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `internal_error` (the Errors table of the description says what to change) */
      500: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `queue_full`, `preview_unavailable`, `server_busy`, `storage_unavailable`, `database_unavailable` (the Errors table of the description says what to change) */
      503: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "Retry-After": components["headers"]["Retry-After"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  /**
   * Change a destination
   * @description Changes the fields given (the type stays): a secret sent replaces the stored one, a secret left out is kept. Deliveries still pending use the new settings at their next attempt. Recorded as destination.updated (with the names of the changed fields, never their values). Needs destinations:manage.
   */
  updateDestination: {
    parameters: {
      path: {
        destinationID: string;
      };
    };
    /** @description The fields to change; a secret sent replaces the stored one, one left out is kept. The type cannot change */
    requestBody: {
      content: {
        "application/json": {
          /** @description Your name for it, e.g. archive */
          name?: string;
          s3?: {
            /** @description The S3-compatible endpoint, e.g. https://s3.eu-central-1.amazonaws.com or https://minio.example.com; default: AWS S3 in the region. Path-style addressing */
            endpoint?: string;
            /** @description The region requests are signed for; default us-east-1 */
            region?: string;
            /** @description The bucket */
            bucket?: string;
            /** @description Put before every object key, e.g. reports/; default none */
            prefix?: string;
            access_key_id?: string;
            /** @description Never returned */
            secret_access_key?: string;
          };
          sftp?: {
            /** @description The SFTP server's host name or address */
            host?: string;
            /** @default 22 */
            port?: number;
            user?: string;
            /** @description The server's public host key, as ssh-keyscan or the server's /etc/ssh/ssh_host_*_key.pub prints it (ssh-ed25519 AAAA…). Pinned: a server showing another key is refused */
            host_key?: string;
            /** @description Where files go on the server; default: the user's login directory */
            directory?: string;
            /** @description An OpenSSH or PEM private key (not passphrase-protected); or password. Never returned */
            private_key?: string;
            /** @description Or private_key. Never returned */
            password?: string;
          };
          email?: {
            /** @description The recipients */
            to?: string[];
          };
        };
      };
    };
    responses: {
      /** @description Response for status 200 */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": {
            /** @description A destination. Its secrets (secret_access_key, private_key, password) are stored sealed and never returned. */
            data: {
              /** Format: uuid */
              id: string;
              name: string;
              /** @enum {string} */
              type: "s3" | "sftp" | "email";
              /** Format: date-time */
              created_at: string;
              /** Format: date-time */
              updated_at: string;
              s3?: {
                endpoint: string;
                region: string;
                bucket: string;
                prefix: string;
                access_key_id: string;
              };
              sftp?: {
                host: string;
                port: number;
                user: string;
                host_key: string;
                directory: string;
                /** @enum {string} */
                auth: "private_key" | "password";
              };
              email?: {
                to: string[];
              };
            };
          };
        };
      };
      /** @description An error: `invalid_json`, `e_invoice_unreadable`, `invalid_cursor`, `invalid_idempotency_key` (the Errors table of the description says what to change) */
      400: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description X-API-Key missing, unknown, wrong or deleted */
      401: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Unauthorized"];
        };
      };
      /** @description An error: `forbidden`, `link_invalid` (the Errors table of the description says what to change) */
      403: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `not_found`, `route_not_found` (the Errors table of the description says what to change) */
      404: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `request_timeout` (the Errors table of the description says what to change) */
      408: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `payload_too_large`, `asset_too_large`, `asset_library_full`, `e_invoice_too_large` (the Errors table of the description says what to change) */
      413: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `unsupported_media_type`, `asset_type_unsupported` (the Errors table of the description says what to change) */
      415: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `validation_failed`, `template_render_failed`, `e_invoice_invalid`, `e_invoice_unsupported`, `pdfa_conflict`, `asset_unsafe`, `image_conflict`, `signature_conflict`, `pkcs12_too_large`, `pkcs12_unreadable`, `pkcs12_password_wrong`, `pkcs12_no_private_key`, `certificate_not_valid_now`, `signing_key_unsupported`, `idempotency_key_reused` (the Errors table of the description says what to change) */
      422: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `rate_limited`, `quota_exceeded`, `account_queue_full` (the Errors table of the description says what to change) */
      429: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "Retry-After": components["headers"]["Retry-After"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `internal_error` (the Errors table of the description says what to change) */
      500: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `queue_full`, `preview_unavailable`, `server_busy`, `storage_unavailable`, `database_unavailable` (the Errors table of the description says what to change) */
      503: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "Retry-After": components["headers"]["Retry-After"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  /**
   * Send a test object to a destination
   * @description Sends a small text object (reportgen-test.txt; an e-mail to the recipients) now, under the same outbound policy and deadline as a delivery, and answers 200 with `ok` and, when it failed, `error` saying what happened (refused by the policy, host key not the pinned one, credentials refused, no answer...). Recorded as destination.tested. Needs destinations:manage.
   */
  testDestination: {
    parameters: {
      path: {
        destinationID: string;
      };
    };
    responses: {
      /** @description Response for status 200 */
      200: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": {
            data: {
              /** @description true: the test object arrived */
              ok: boolean;
              /** @description The object key, file or recipients the test went to */
              target: string;
              /** @description What went wrong, when ok is false */
              error?: string;
              duration_ms: number;
            };
          };
        };
      };
      /** @description X-API-Key missing, unknown, wrong or deleted */
      401: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Unauthorized"];
        };
      };
      /** @description An error: `forbidden`, `link_invalid` (the Errors table of the description says what to change) */
      403: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `not_found`, `route_not_found` (the Errors table of the description says what to change) */
      404: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `rate_limited`, `quota_exceeded`, `account_queue_full` (the Errors table of the description says what to change) */
      429: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "Retry-After": components["headers"]["Retry-After"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `internal_error` (the Errors table of the description says what to change) */
      500: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
      /** @description An error: `queue_full`, `preview_unavailable`, `server_busy`, `storage_unavailable`, `database_unavailable` (the Errors table of the description says what to change) */
      503: {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
          "Retry-After": components["headers"]["Retry-After"];
        };
        content: {
          "application/json": components["schemas"]["Error"];
        };
      };
    };
  };
  /**
   * A report succeeded or failed; or one of its deliveries (options.deliver) ended: report.delivered, report.delivery_failed
   * @description Sent to the report's `webhook.url`. Verify `webhook-signature` before trusting the body; deduplicate on `webhook-id`.
   */
  reportFinished: {
    parameters: {
      header: {
        /** @description msg_…: the same on every attempt of this event */
        "webhook-id": string;
        /** @description Unix seconds when this attempt was sent */
        "webhook-timestamp": string;
        /** @description v1,<base64 HMAC-SHA256 of `${id}.${timestamp}.${body}`>, space-separated per secret */
        "webhook-signature": string;
      };
    };
    requestBody: {
      content: {
        "application/json": {
          type: "report.succeeded" | "report.failed" | "report.delivered" | "report.delivery_failed";
          /**
           * Format: date-time
           * @description When this attempt was sent
           */
          timestamp: string;
          data: {
            /** Format: uuid */
            report_id: string;
            /** @description The report's status when the attempt was sent: succeeded or failed (expired if it outlived retention) */
            status: string;
            engine: string;
            /** Format: date-time */
            created_at: string;
            /** Format: date-time */
            started_at: string | null;
            /** Format: date-time */
            finished_at: string | null;
            /** Format: date-time */
            expires_at: string | null;
            attempts: number;
            size_bytes: number | null;
            page_count: number | null;
            error: {
              code: string;
              message: string;
            } | null;
            /** @description report.succeeded only: a link signed at the time of this attempt (each retry carries a fresh one) */
            download: {
              /** @description Signed link to the PDF, no key needed */
              url: string;
              /** Format: date-time */
              expires_at: string;
            } | null;
            /** @description report.delivered and report.delivery_failed only: the delivery (one entry of options.deliver) as it ended */
            delivery?: {
              destination_id: string;
              /** @description pending (waiting for the PDF or the next attempt), delivered, or failed (given up) */
              status: "pending" | "delivered" | "failed";
              attempts: number;
              /** @description The object key, file or recipients */
              target: string;
              /** Format: date-time */
              delivered_at: string | null;
              /** @description What the last failed attempt met */
              error: string | null;
            };
          };
        };
      };
    };
    responses: {
      /** @description Delivered. Any other answer, a timeout or a connection error is retried. */
      "2XX": {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: never;
      };
    };
  };
  /**
   * A schedule's run failed
   * @description Sent to the schedule's `webhook.url` when a tick could queue no report; signed and retried like report events (same headers), webhook-id msg_<run_id>.
   */
  scheduleRunFailed: {
    requestBody: {
      content: {
        "application/json": {
          /** @constant */
          type: "schedule.run_failed";
          /** Format: date-time */
          timestamp: string;
          data: {
            /** Format: uuid */
            schedule_id: string;
            schedule_name: string;
            /**
             * Format: uuid
             * @description GET /schedules/{schedule_id}/runs lists it
             */
            run_id: string;
            /** Format: date-time */
            scheduled_for: string;
            /** @description Why no report was queued */
            error: string | null;
          };
        };
      };
    };
    responses: {
      /** @description Delivered. Any other answer, a timeout or a connection error is retried. */
      "2XX": {
        headers: {
          "X-Request-Id": components["headers"]["X-Request-Id"];
        };
        content: never;
      };
    };
  };
}
