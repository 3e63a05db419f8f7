// loadConfig: flag beats environment beats default; bad values fail start-up with the name of the
// flag or variable at fault. settingsHelp documents every setting.
import { describe, expect, test } from "bun:test";
import { ConfigError, loadConfig, settingsHelp } from "../../src/config/load";
import { settings } from "../../src/config/settings";

const specs = Object.entries(settings);

describe("precedence", () => {
  test("with nothing set, every setting has its default", () => {
    const cfg = loadConfig({}, {});
    for (const [key, s] of specs) expect(cfg[key as keyof typeof cfg]).toEqual(s.default as never);
  });

  const cases: [string, Record<string, string>, Record<string, string>, keyof ReturnType<typeof loadConfig>, unknown][] = [
    ["env over default", {}, { REPORTGEN_PORT: "9000" }, "port", 9000],
    ["flag over default", { port: "9100" }, {}, "port", 9100],
    ["flag over env", { port: "9100" }, { REPORTGEN_PORT: "9000" }, "port", 9100],
    ["flag over env (duration)", { "link-ttl": "5m" }, { REPORTGEN_LINK_TTL: "2h" }, "linkTtl", 300_000],
    ["env duration", {}, { REPORTGEN_RETENTION: "1d" }, "retention", 86_400_000],
    ["env size", {}, { REPORTGEN_BODY_LIMIT: "2MB" }, "bodyLimit", 2 * 1024 ** 2],
    ["flag size", { "data-max-size": "512KB" }, {}, "dataMaxSize", 524_288],
    ["env bool true", {}, { REPORTGEN_TRUST_PROXY: "yes" }, "trustProxy", true],
    ["flag bool false over env true", { javascript: "off" }, { REPORTGEN_JAVASCRIPT: "true" }, "javascript", false],
    [
      "env list, normalised",
      {},
      { REPORTGEN_ALLOW_HOSTS: " Fonts.GStatic.com, *.Example.COM,, " },
      "allowHosts",
      ["fonts.gstatic.com", "*.example.com"],
    ],
    ["env enum", {}, { REPORTGEN_LOG_LEVEL: "debug" }, "logLevel", "debug"],
    ["env string", {}, { REPORTGEN_DATA_DIR: "/var/lib/reportgen" }, "dataDir", "/var/lib/reportgen"],
    [
      "public URL: trailing slash dropped",
      { "public-url": "https://reports.example.com/" },
      {},
      "publicUrl",
      "https://reports.example.com",
    ],
    [
      "public URL: path kept, query dropped",
      {},
      { REPORTGEN_PUBLIC_URL: "https://example.com/pdf//?x=1#y" },
      "publicUrl",
      "https://example.com/pdf",
    ],
    ["empty env counts as unset", {}, { REPORTGEN_PORT: "" }, "port", 8080],
    ["empty env does not override a flag either", { port: "7000" }, { REPORTGEN_PORT: "" }, "port", 7000],
    ["a bad env value is ignored when a flag is given", { port: "7000" }, { REPORTGEN_PORT: "not-a-port" }, "port", 7000],
    ["port 0 picks a free port", { port: "0" }, {}, "port", 0],
    ["unknown flags are ignored", { "no-such-flag": "1" }, {}, "port", 8080],
  ];
  for (const [label, flags, env, key, value] of cases) {
    test(label, () => expect(loadConfig(flags, env)[key]).toEqual(value as never));
  }

  test("an empty flag value is taken as given (not as unset)", () => {
    expect(loadConfig({ "data-dir": "" }, { REPORTGEN_DATA_DIR: "/x" }).dataDir).toBe("");
  });
});

describe("bad values throw ConfigError naming the flag or variable", () => {
  const bad: [string, string, string][] = [
    ["port", "abc", "whole number"],
    ["port", "65536", "whole number"],
    ["port", "-1", "whole number"],
    ["port", "80.5", "whole number"],
    ["render-workers", "0", "whole number"],
    ["render-workers", "65", "whole number"],
    ["max-attempts", "11", "whole number"],
    ["data-max-depth", "0", "whole number"],
    ["data-max-depth", "1001", "whole number"],
    ["link-ttl", "500ms", "at least 1000"],
    ["link-ttl", "soon", "duration"],
    ["retention", "30s", "at least 60000"],
    ["template-timeout", "50ms", "at least 100"],
    ["render-timeout", "1 hour", "duration"],
    ["body-limit", "10XB", "size"],
    ["template-memory", "lots", "size"],
    ["javascript", "maybe", "true or false"],
    ["trust-proxy", "2", "true or false"],
    ["log-level", "verbose", "one of"],
    ["log-level", "INFO", "one of"],
    ["public-url", "ftp://example.com", "http(s)"],
    ["public-url", "not a url", ""],
    ["read-rate-limit", "-1", "whole number"],
    ["idle-timeout", "300s", "at most"],
    ["queue-limit", "0", "whole number"],
  ];
  for (const [flag, value, reason] of bad) {
    const env = Object.values(settings).find((s) => s.flag === flag)!.env;
    test(`--${flag}=${value}`, () => {
      let err: unknown;
      try {
        loadConfig({ [flag]: value }, {});
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(ConfigError);
      expect((err as Error).message).toContain(`--${flag}`);
      expect((err as Error).message).toContain(JSON.stringify(value));
      if (reason) expect((err as Error).message).toContain(reason);
    });
    test(`${env}=${value}`, () => {
      let err: unknown;
      try {
        loadConfig({}, { [env]: value });
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(ConfigError);
      expect((err as Error).message).toContain(env);
      expect((err as Error).message).not.toContain(`--${flag}`);
    });
  }

  test("a link secret shorter than 32 characters is rejected (flag or env)", () => {
    expect(() => loadConfig({ "link-secret": "x".repeat(31) }, {})).toThrow(ConfigError);
    expect(() => loadConfig({}, { REPORTGEN_LINK_SECRET: "short" })).toThrow(/REPORTGEN_LINK_SECRET.*32/);
  });

  test("a 32-character link secret is accepted; empty means generated", () => {
    expect(loadConfig({ "link-secret": "x".repeat(32) }, {}).linkSecret).toBe("x".repeat(32));
    expect(loadConfig({}, { REPORTGEN_LINK_SECRET: "" }).linkSecret).toBe("");
  });

  test("loadConfig does not read process.env when an environment is passed", () => {
    const saved = process.env.REPORTGEN_PORT;
    process.env.REPORTGEN_PORT = "1234";
    try {
      expect(loadConfig({}, {}).port).toBe(8080);
      expect(loadConfig({}).port).toBe(1234);
    } finally {
      if (saved === undefined) delete process.env.REPORTGEN_PORT;
      else process.env.REPORTGEN_PORT = saved;
    }
  });
});

describe("settingsHelp", () => {
  const help = settingsHelp();
  for (const [key, s] of specs) {
    test(`documents ${key}: --${s.flag}, ${s.env} and its help`, () => {
      expect(help).toContain(`--${s.flag} `);
      expect(help).toContain(s.env);
      expect(help).toContain(s.help);
    });
  }

  test("shows computed defaults by their description, and every group heading", () => {
    expect(help).toContain("[default: 1h]");
    expect(help).toContain("[default: 10MB]");
    for (const group of new Set(Object.values(settings).map((s) => s.group))) expect(help).toContain(`${group}:`);
  });

  test("every flag and variable name is unique and well-formed", () => {
    const flags = specs.map(([, s]) => s.flag);
    const envs = specs.map(([, s]) => s.env);
    expect(new Set(flags).size).toBe(flags.length);
    expect(new Set(envs).size).toBe(envs.length);
    for (const f of flags) expect(f).toMatch(/^[a-z][a-z0-9-]*$/);
    for (const e of envs) expect(e).toMatch(/^REPORTGEN_[A-Z0-9_]+$/);
  });
});
