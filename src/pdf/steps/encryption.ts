// options.encryption: AES-256 with a user and an owner password, and what a reader without the owner
// password may do. Everything not allowed is refused.
import type { PdfPermission } from "../options";
import type { QpdfStep } from "../step";

export interface EncryptionParams {
  userPassword: string;
  ownerPassword: string;
  permissions: PdfPermission[];
}

export const encryption: QpdfStep<EncryptionParams> = {
  name: "encryption",
  tool: "qpdf",
  plan: ({ options: o, passwords }) => {
    if (!o.encryption) return undefined;
    if (!passwords) throw new Error("encryption planned without its passwords");
    return { userPassword: passwords.user, ownerPassword: passwords.owner, permissions: o.encryption.permissions ?? [] };
  },
  job: (e) => {
    const allow = new Set(e.permissions);
    return {
      encrypt: {
        userPassword: e.userPassword,
        ownerPassword: e.ownerPassword,
        "256bit": {
          print: allow.has("print") ? "full" : "none",
          extract: allow.has("copy") ? "y" : "n",
          // modify: assembling, forms and content; annotate (comments and form fields) comes with it.
          modify: allow.has("modify") ? "all" : "none",
          annotate: allow.has("annotate") || allow.has("modify") ? "y" : "n",
        },
      },
    };
  },
};
