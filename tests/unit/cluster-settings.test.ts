// The cluster's settings: --storage-url (s3://bucket/prefix), --role, and the standard AWS variables,
// read once by loadConfig and checked there, so a bad value stops start-up naming what is wrong.
import { describe, expect, test } from "bun:test";
import { ConfigError, loadConfig, settingsHelp } from "../../src/config/load";
import { s3Environment } from "../../src/config/settings";

const creds = { AWS_ACCESS_KEY_ID: "id", AWS_SECRET_ACCESS_KEY: "secret" };

describe("--storage-url", () => {
  const cases: [string, string][] = [
    ["s3://reports", "s3://reports/"],
    ["s3://reports/", "s3://reports/"],
    ["s3://reports/pdf", "s3://reports/pdf/"],
    ["s3://reports//team/a//", "s3://reports/team/a/"],
    ["s3://my.bucket-1/x", "s3://my.bucket-1/x/"],
  ];
  for (const [raw, normalised] of cases) {
    test(`${raw} reads as ${normalised}`, () => {
      expect(loadConfig({ "storage-url": raw }, creds).storageUrl).toBe(normalised);
      expect(loadConfig({}, { ...creds, REPORTGEN_STORAGE_URL: raw }).storageUrl).toBe(normalised);
    });
  }

  test("empty means the data dir, and needs no AWS variables", () => {
    const c = loadConfig({}, {});
    expect(c.storageUrl).toBe("");
    expect(c.s3).toEqual({ endpoint: "", accessKeyId: "", secretAccessKey: "", sessionToken: "", region: "us-east-1" });
  });

  for (const [raw, reason] of [
    ["https://bucket/x", "s3://bucket"],
    ["s3://", "s3://bucket"],
    ["s3://UPPER/x", "not a valid S3 bucket name"],
    ["s3://ab", "not a valid S3 bucket name"],
    ["s3://under_score", "not a valid S3 bucket name"],
  ] as const) {
    test(`${raw} is refused, naming the setting`, () => {
      expect(() => loadConfig({ "storage-url": raw }, creds)).toThrow(ConfigError);
      expect(() => loadConfig({ "storage-url": raw }, creds)).toThrow(reason);
      expect(() => loadConfig({}, { ...creds, REPORTGEN_STORAGE_URL: raw })).toThrow(/REPORTGEN_STORAGE_URL/);
    });
  }
});

describe("AWS variables", () => {
  const s3 = (env: Record<string, string>) => loadConfig({ "storage-url": "s3://b-1/" }, env).s3;

  test("read from the environment given, once, into the config", () => {
    expect(s3({ ...creds, AWS_SESSION_TOKEN: "tok", AWS_REGION: "eu-west-3" })).toEqual({
      endpoint: "",
      accessKeyId: "id",
      secretAccessKey: "secret",
      sessionToken: "tok",
      region: "eu-west-3",
    });
  });

  test("AWS_ENDPOINT_URL_S3 wins over AWS_ENDPOINT_URL; either is reduced to its origin", () => {
    expect(s3({ ...creds, AWS_ENDPOINT_URL: "http://a:9000", AWS_ENDPOINT_URL_S3: "https://s3.example.com/" }).endpoint).toBe(
      "https://s3.example.com",
    );
    expect(s3({ ...creds, AWS_ENDPOINT_URL: "http://minio:9000" }).endpoint).toBe("http://minio:9000");
  });

  test("a bucket without credentials, or with a bad endpoint, stops start-up with how to fix it", () => {
    expect(() => s3({})).toThrow(/AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY/);
    expect(() => s3({ AWS_ACCESS_KEY_ID: "id" })).toThrow(ConfigError);
    expect(() => s3({ ...creds, AWS_ENDPOINT_URL: "minio:9000" })).toThrow(/http\(s\) URL/);
    expect(() => s3({ ...creds, AWS_ENDPOINT_URL_S3: "ftp://x" })).toThrow(/AWS_ENDPOINT_URL/);
  });

  test("--help lists every AWS variable", () => {
    const help = settingsHelp();
    for (const v of s3Environment) expect(help).toContain(v.env);
  });
});

describe("--role", () => {
  test("defaults to all; api and worker are accepted; anything else is refused", () => {
    expect(loadConfig({}, {}).role).toBe("all");
    expect(loadConfig({ role: "api" }, {}).role).toBe("api");
    expect(loadConfig({}, { REPORTGEN_ROLE: "worker" }).role).toBe("worker");
    expect(() => loadConfig({ role: "render" }, {})).toThrow(/--role="render": must be one of all, api, worker/);
  });
});
