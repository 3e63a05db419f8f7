// Every setting of the service, declared once: flag, environment variable, default, parser, help.
// `--help`, the README's configuration table and loadConfig() are all generated from this list.
import { deliverySettings } from "./settings-delivery";
import { httpSettings } from "./settings-http";
import { renderSettings } from "./settings-render";
import { serviceSettings } from "./settings-service";

export type { ServeRole, SettingSpec } from "./parsers";
export { defaultMaxConnections } from "./settings-http";

/** Every setting, in the order --help and the README's configuration table list them. */
export const settings = { ...serviceSettings, ...renderSettings, ...httpSettings, ...deliverySettings };

/**
 * The standard AWS variables, read once at start-up for an s3:// --storage-url. Environment only: they
 * are the names every S3 tool reads, and credentials do not belong on a command line.
 */
export const s3Environment = [
  { key: "endpoint", env: "AWS_ENDPOINT_URL_S3", help: "S3 endpoint (MinIO, R2, Garage…); with an endpoint, addressing is path-style" },
  { key: "endpoint", env: "AWS_ENDPOINT_URL", help: "The endpoint when AWS_ENDPOINT_URL_S3 is unset; neither: AWS S3 in AWS_REGION" },
  { key: "accessKeyId", env: "AWS_ACCESS_KEY_ID", help: "Access key id (required with an s3:// storage URL)" },
  { key: "secretAccessKey", env: "AWS_SECRET_ACCESS_KEY", help: "Secret access key (required with an s3:// storage URL)" },
  { key: "sessionToken", env: "AWS_SESSION_TOKEN", help: "Session token of temporary credentials" },
  { key: "region", env: "AWS_REGION", help: "Region that requests are signed for [default: us-east-1]" },
] as const;

export interface S3Access {
  endpoint: string;
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken: string;
  region: string;
}

export type Settings = typeof settings;
export type SettingKey = keyof Settings;
export type Config = { [K in SettingKey]: Settings[K]["default"] } & {
  /** From the AWS_* variables (s3Environment); empty strings when unset. */
  s3: S3Access;
};
