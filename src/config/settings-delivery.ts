// Settings of delivery (options.deliver, src/modules/destinations/): the outbound policy of destination
// hosts, the operator's SMTP server, and the retries.
import { duration, durationBetween, list, size, spec } from "./parsers";

/** smtp:// (a local relay, plain), smtp+starttls:// or smtps:// (TLS from the start), with user:password@ when the server wants them. */
export const smtpUrl = (raw: string): string => {
  if (raw === "") return "";
  const u = new URL(raw);
  if (!["smtp:", "smtp+starttls:", "smtps:"].includes(u.protocol))
    throw new Error("must be smtp://host[:port] (plain, a local relay), smtp+starttls://host[:port] or smtps://host[:port]");
  if (!u.hostname) throw new Error("must name the SMTP server's host");
  return raw;
};

export const deliverySettings = {
  destinationAllowHosts: spec({
    group: "Delivery",
    flag: "destination-allow-hosts",
    env: "REPORTGEN_DESTINATION_ALLOW_HOSTS",
    default: [] as string[],
    defaultText: "(none)",
    parse: list,
    help: "Destination hosts (S3 endpoints, SFTP servers) that may be reached at private/loopback addresses or an S3 endpoint over plain http (comma list, *.example.com allowed); others must be public",
  }),
  deliveryTimeout: spec({
    group: "Delivery",
    flag: "delivery-timeout",
    env: "REPORTGEN_DELIVERY_TIMEOUT",
    default: 120_000,
    defaultText: "2m",
    parse: durationBetween(1000, 3_600_000),
    help: "Deadline for one delivery attempt (connect, upload, answer); past it the attempt counts as failed and is retried",
  }),
  deliveryRetryWindow: spec({
    group: "Delivery",
    flag: "delivery-retry-window",
    env: "REPORTGEN_DELIVERY_RETRY_WINDOW",
    default: 86_400_000,
    defaultText: "24h",
    parse: duration(1000),
    help: "How long a failing delivery is retried (exponential backoff with jitter) before it is given up (failed)",
  }),
  deliveryRetryBase: spec({
    group: "Delivery",
    flag: "delivery-retry-base",
    env: "REPORTGEN_DELIVERY_RETRY_BASE",
    default: 10_000,
    defaultText: "10s",
    parse: duration(10),
    help: "First delivery retry delay; each later one doubles, up to 1h, with jitter",
  }),
  smtpUrl: spec({
    group: "Delivery",
    flag: "smtp-url",
    env: "REPORTGEN_SMTP_URL",
    default: "",
    defaultText: "(none: e-mail destinations cannot deliver)",
    parse: smtpUrl,
    help: "The SMTP server e-mail destinations send through: smtp://host:25 (a local relay), smtp+starttls://user:password@host:587 or smtps://user:password@host:465",
  }),
  smtpFrom: spec({
    group: "Delivery",
    flag: "smtp-from",
    env: "REPORTGEN_SMTP_FROM",
    default: "",
    defaultText: "(none)",
    parse: (raw: string) => {
      if (raw !== "" && !/^[^\s@<>]+@[^\s@<>]+$/.test(raw)) throw new Error("must be an e-mail address, e.g. reports@example.com");
      return raw;
    },
    help: "The sender address of delivered e-mails",
  }),
  emailAttachMax: spec({
    group: "Delivery",
    flag: "email-attach-max",
    env: "REPORTGEN_EMAIL_ATTACH_MAX",
    default: 10 * 1024 ** 2,
    defaultText: "10MB",
    parse: size,
    help: "Largest PDF an e-mail carries as an attachment; a larger one is sent as a signed download link instead",
  }),
};
