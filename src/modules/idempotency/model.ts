// The Idempotency-Key request header, as every idempotent endpoint declares it.
import { t } from "elysia";

export const idempotencyHeaders = t.Object(
  {
    "idempotency-key": t.Optional(
      t.String({
        description:
          "Optional. Makes a retry safe: the same key and the same body within 24 hours answer the first response again (with Idempotent-Replayed: true) " +
          "instead of acting twice; the same key with another body answers 422 idempotency_key_reused. A record belongs to the access key that sent it: another key sending the same Idempotency-Key is a fresh request, never answered from it. " +
          "1 to 255 printable ASCII characters; use a fresh UUID v4 per operation.",
        examples: ["5f1c0f6e-8e9a-4d55-9d1e-4b9d5f0e2a61"],
      }),
    ),
  },
  { additionalProperties: true },
);
