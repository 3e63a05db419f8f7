// The JSON of destinations: the bodies that create and change one, what the API answers (never a
// secret), a report's deliveries as GET /reports/{id} shows them, and options.deliver.
import { t } from "elysia";
import { deliveryStatuses, destinationTypes } from "../../db/schema";
import { oneOf } from "../../http/schema";
import { iso } from "../../lib/time";

const host = (description: string) => t.String({ minLength: 1, maxLength: 253, description });
const secret = (description: string) => t.String({ minLength: 1, maxLength: 16_384, description });

const s3Fields = {
  endpoint: t.Optional(
    t.String({
      maxLength: 2048,
      description:
        "The S3-compatible endpoint, e.g. https://s3.eu-central-1.amazonaws.com or https://minio.example.com; default: AWS S3 in the region. Path-style addressing",
    }),
  ),
  region: t.Optional(t.String({ minLength: 1, maxLength: 64, description: "The region requests are signed for; default us-east-1" })),
  bucket: t.String({ minLength: 3, maxLength: 63, pattern: "^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$", description: "The bucket" }),
  prefix: t.Optional(t.String({ maxLength: 512, description: "Put before every object key, e.g. reports/; default none" })),
  access_key_id: t.String({ minLength: 1, maxLength: 256 }),
};
const sftpFields = {
  host: host("The SFTP server's host name or address"),
  port: t.Optional(t.Integer({ minimum: 1, maximum: 65535, default: 22 })),
  user: t.String({ minLength: 1, maxLength: 256 }),
  host_key: t.String({
    minLength: 1,
    maxLength: 16_384,
    description:
      "The server's public host key, as ssh-keyscan or the server's /etc/ssh/ssh_host_*_key.pub prints it (ssh-ed25519 AAAA…). Pinned: a server showing another key is refused",
  }),
  directory: t.Optional(t.String({ maxLength: 1024, description: "Where files go on the server; default: the user's login directory" })),
};
const emailFields = {
  to: t.Array(t.String({ minLength: 3, maxLength: 254, pattern: "^[^\\s@<>,;]+@[^\\s@<>,;]+$" }), {
    minItems: 1,
    maxItems: 50,
    description: "The recipients",
  }),
};

/** The secret fields of each type: sealed at rest, accepted on create and update, never returned. */
export const SECRET_FIELDS = { s3: ["secret_access_key"], sftp: ["private_key", "password"], email: [] } as const;

const createS3 = t.Object({ ...s3Fields, secret_access_key: secret("Never returned") }, { additionalProperties: false });
const createSftp = t.Object(
  {
    ...sftpFields,
    private_key: t.Optional(secret("An OpenSSH or PEM private key (not passphrase-protected); or password. Never returned")),
    password: t.Optional(t.String({ minLength: 1, maxLength: 1024, description: "Or private_key. Never returned" })),
  },
  { additionalProperties: false },
);
const createEmail = t.Object(emailFields, { additionalProperties: false });

const name = t.String({ minLength: 1, maxLength: 200, description: "Your name for it, e.g. archive" });

export const createDestinationBody = t.Object(
  {
    name,
    type: oneOf(destinationTypes, { description: "s3, sftp or email: the object of that name holds its settings" }),
    s3: t.Optional(createS3),
    sftp: t.Optional(createSftp),
    email: t.Optional(createEmail),
  },
  { additionalProperties: false },
);

export const updateDestinationBody = t.Object(
  {
    name: t.Optional(name),
    s3: t.Optional(t.Partial(createS3, { additionalProperties: false })),
    sftp: t.Optional(t.Partial(createSftp, { additionalProperties: false })),
    email: t.Optional(t.Partial(createEmail, { additionalProperties: false })),
  },
  {
    additionalProperties: false,
    description: "The fields to change; a secret sent replaces the stored one, one left out is kept. The type cannot change",
  },
);

export type CreateDestination = typeof createDestinationBody.static;
export type UpdateDestination = typeof updateDestinationBody.static;

export const destinationSchema = t.Object(
  {
    id: t.String({ format: "uuid" }),
    name: t.String(),
    type: oneOf(destinationTypes),
    created_at: t.String({ format: "date-time" }),
    updated_at: t.String({ format: "date-time" }),
    s3: t.Optional(
      t.Object({ endpoint: t.String(), region: t.String(), bucket: t.String(), prefix: t.String(), access_key_id: t.String() }),
    ),
    sftp: t.Optional(
      t.Object({
        host: t.String(),
        port: t.Integer(),
        user: t.String(),
        host_key: t.String(),
        directory: t.String(),
        auth: oneOf(["private_key", "password"] as const, { description: "Which secret it signs in with (never returned)" }),
      }),
    ),
    email: t.Optional(t.Object({ to: t.Array(t.String()) })),
  },
  { description: "A destination. Its secrets (secret_access_key, private_key, password) are stored sealed and never returned." },
);

export const destinationIdParams = t.Object({ destinationID: t.String() });

export const testResultSchema = t.Object({
  data: t.Object({
    ok: t.Boolean({ description: "true: the test object arrived" }),
    target: t.String({ description: "The object key, file or recipients the test went to" }),
    error: t.Optional(t.String({ description: "What went wrong, when ok is false" })),
    duration_ms: t.Integer(),
  }),
});

/** A destination as the API shows it (settings: what it stores in the clear). */
export function toDestinationJson(d: {
  id: string;
  name: string;
  type: string;
  createdAt: number;
  updatedAt: number;
  settings: Record<string, unknown>;
}) {
  return {
    id: d.id,
    name: d.name,
    type: d.type as (typeof destinationTypes)[number],
    created_at: iso(d.createdAt)!,
    updated_at: iso(d.updatedAt)!,
    [d.type]: d.settings,
  };
}

export type { DeliverRequest as DeliverEntry } from "../../pdf/options";

export const reportDeliverySchema = t.Object({
  destination_id: t.String(),
  status: oneOf(deliveryStatuses, { description: "pending (waiting for the PDF or the next attempt), delivered, or failed (given up)" }),
  attempts: t.Integer(),
  target: t.String({ description: "The object key, file or recipients" }),
  delivered_at: t.Nullable(t.String({ format: "date-time" })),
  error: t.Nullable(t.String({ description: "What the last failed attempt met" })),
});

export const reportDeliveriesSchema = t.Array(reportDeliverySchema, {
  description: "Where options.deliver sends the PDF, in its order (absent for reports without options.deliver)",
});

/** A delivery as it ended, for report.delivered and report.delivery_failed. */
export function deliveryJson(
  d: { destinationId: string; target: string },
  end: { status: "delivered" | "failed"; attempts: number; error: string | null; at: number },
): typeof reportDeliverySchema.static {
  return {
    destination_id: d.destinationId,
    status: end.status,
    attempts: end.attempts,
    target: d.target,
    delivered_at: end.status === "delivered" ? iso(end.at) : null,
    error: end.error,
  };
}
