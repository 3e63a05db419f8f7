// The account's other resources: stored templates, assets (logos, fonts, style sheets), access keys, and the
// check of incoming e-invoices. Each method is one call; bodies and answers are the document's types.
import type { JsonBody, Op, Query, RequestOptions, Transport } from "./http.js";

type Post<P extends Parameters<Transport["request"]>[1]> = Op<P, "post" & keyof Op<P, "post">>;
type Opts = Pick<RequestOptions<unknown>, "idempotencyKey" | "signal">;

export type TemplateCreate = JsonBody<Op<"/api/v1/templates", "post">>;
export type TemplateVersionCreate = JsonBody<Op<"/api/v1/templates/{templateID}/versions", "post">>;
export type KeyCreate = JsonBody<Op<"/api/v1/access-keys", "post">>;
export type KeyUpdate = JsonBody<Op<"/api/v1/access-keys/{accessKeyID}", "patch">>;
export type KeyRotate = JsonBody<Op<"/api/v1/access-keys/{accessKeyID}/rotate", "post">>;
export type EInvoiceRuleSet = "en16931" | "xrechnung" | "peppol";

/** Standard base64 of bytes, in slices (String.fromCharCode takes a bounded number of arguments). */
export function base64(bytes: Uint8Array): string {
  let s = "";
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s);
}
const bytesOf = (content: Uint8Array | string) => (typeof content === "string" ? new TextEncoder().encode(content) : content);

export function templates(http: Transport) {
  return {
    /** Stores a template as its version 1; generate from it with `template_id`. */
    async create(body: TemplateCreate, opts: Opts = {}) {
      return (await http.request("post", "/api/v1/templates", { ...opts, body })).body;
    },
    /** Adds a version (the latest is what `template_id` alone generates from). */
    async addVersion(templateId: string, body: TemplateVersionCreate, opts: Opts = {}) {
      return (await http.request("post", "/api/v1/templates/{templateID}/versions", { ...opts, path: { templateID: templateId }, body }))
        .body;
    },
    async list(query: Query<Op<"/api/v1/templates", "get">> = {}) {
      return (await http.request("get", "/api/v1/templates", { query })).body;
    },
    async get(templateId: string) {
      return (await http.request("get", "/api/v1/templates/{templateID}", { path: { templateID: templateId } })).body.data;
    },
    async getVersion(templateId: string, version: number) {
      return (
        await http.request("get", "/api/v1/templates/{templateID}/versions/{version}", {
          path: { templateID: templateId, version } as never,
        })
      ).body.data;
    },
    async delete(templateId: string) {
      return (await http.request("delete", "/api/v1/templates/{templateID}", { path: { templateID: templateId } })).body.data;
    },
  };
}

export function assets(http: Transport) {
  return {
    /** Uploads (or replaces, by name) an asset: use it in templates as asset:<name>. */
    async upload(asset: { name: string; content: Uint8Array | string; type?: string }, opts: Opts = {}) {
      const body = { name: asset.name, content_base64: base64(bytesOf(asset.content)), type: asset.type };
      const a = await http.request("post", "/api/v1/assets", { ...opts, body: body as JsonBody<Post<"/api/v1/assets">> });
      return a.body;
    },
    async list(query: Query<Op<"/api/v1/assets", "get">> = {}) {
      return (await http.request("get", "/api/v1/assets", { query })).body;
    },
    async get(assetId: string) {
      return (await http.request("get", "/api/v1/assets/{assetID}", { path: { assetID: assetId } })).body.data;
    },
    /** The asset's bytes. */
    async content(assetId: string): Promise<Uint8Array> {
      const url = `${http.baseUrl}/api/v1/assets/${encodeURIComponent(assetId)}/content`;
      const res = await http.send(() => (http.options.fetch ?? fetch)(url, { headers: { "x-api-key": http.options.apiKey } }));
      return new Uint8Array(await res.arrayBuffer());
    },
    async delete(assetId: string) {
      return (await http.request("delete", "/api/v1/assets/{assetID}", { path: { assetID: assetId } })).body.data;
    },
  };
}

export function keys(http: Transport) {
  return {
    /** Creates a key; its value is in `data`, shown this once. */
    async create(body: KeyCreate, opts: Opts = {}) {
      return (await http.request("post", "/api/v1/access-keys", { ...opts, body })).body;
    },
    async list() {
      return (await http.request("get", "/api/v1/access-keys")).body.data;
    },
    async update(keyId: string, body: KeyUpdate) {
      return (await http.request("patch", "/api/v1/access-keys/{accessKeyID}", { path: { accessKeyID: keyId }, body })).body.data;
    },
    /** A new value for the key; the old one works `grace_seconds` longer. */
    async rotate(keyId: string, body: KeyRotate = {}, opts: Opts = {}) {
      return (await http.request("post", "/api/v1/access-keys/{accessKeyID}/rotate", { ...opts, path: { accessKeyID: keyId }, body })).body;
    },
    async delete(keyId: string) {
      return (await http.request("delete", "/api/v1/access-keys/{accessKeyID}", { path: { accessKeyID: keyId } })).body.data;
    },
  };
}

export function eInvoices(http: Transport) {
  return {
    /** Checks an incoming e-invoice (UBL or CII XML, or a Factur-X/ZUGFeRD PDF) against EN 16931 and the rule sets asked for. */
    async validate(invoice: { xml?: Uint8Array | string; pdf?: Uint8Array; rules?: EInvoiceRuleSet[] }, opts: Opts = {}) {
      const body = {
        ...(invoice.xml === undefined ? {} : { xml_base64: base64(bytesOf(invoice.xml)) }),
        ...(invoice.pdf === undefined ? {} : { pdf_base64: base64(invoice.pdf) }),
        ...(invoice.rules === undefined ? {} : { rules: invoice.rules }),
      };
      return (await http.request("post", "/api/v1/e-invoices/validate", { ...opts, body })).body.data;
    },
  };
}
