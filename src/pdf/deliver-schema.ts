// options.deliver: where the stored PDF goes (delivered by src/modules/destinations/; docs/delivery.md).
// Part of the one options contract, kept in a file of its own.
import { t } from "elysia";

/** One entry of options.deliver. */
const deliverEntrySchema = t.Object(
  {
    destination_id: t.String({ format: "uuid", description: "One of the account's destinations" }),
    path: t.Optional(
      t.String({
        minLength: 1,
        maxLength: 1024,
        description:
          "The object key (s3, after the destination's prefix) or file name (sftp, in its directory) with placeholders {yyyy} {mm} {dd} (the UTC day the report was accepted), {report_id} and {template_id}; default {report_id}.pdf",
      }),
    ),
    subject: t.Optional(
      t.String({ maxLength: 998, description: "E-mail only: the subject, same placeholders; default Report {report_id}" }),
    ),
    body: t.Optional(t.String({ maxLength: 100_000, description: "E-mail only: the plain-text message, same placeholders" })),
  },
  { additionalProperties: false },
);

export const deliverOptionSchema = t.Array(deliverEntrySchema, {
  maxItems: 10,
  description:
    "Deliver the PDF, once it is stored, to these destinations (see docs/delivery.md). Each is retried with backoff; GET /reports/{id} shows `deliveries`",
});
