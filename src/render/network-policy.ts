// What the report page may reach. Closed by default: only data:, blob: and about: URLs load.
// The launch flags close Chromium's own network stack too, so nothing (preconnect, sendBeacon,
// background update checks) can open a connection that request interception would not see.

/**
 * Flags that leave Chromium no way to resolve or reach any host but the proxy. With an allow-list
 * the proxy is reportgen's checking egress proxy (which resolves names itself); otherwise a dead port.
 */
export function closedNetworkArgs(proxyUrl?: string): string[] {
  const proxy = proxyUrl ? new URL(proxyUrl) : undefined;
  return [
    // Every hostname and IP literal resolves to NOTFOUND (no DNS, TCP or QUIC of Chromium's own);
    // only our real proxy is exempt. Without one, even the placeholder proxy cannot be reached.
    `--host-resolver-rules=MAP * ~NOTFOUND${proxy ? ` , EXCLUDE ${proxy.hostname}` : ""}`,
    `--proxy-server=${proxy?.origin ?? "http://127.0.0.1:9"}`,
    "--proxy-bypass-list=<-loopback>",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-domain-reliability",
    "--disable-sync",
    "--disable-default-apps",
    "--disable-client-side-phishing-detection",
    "--no-pings",
    "--no-first-run",
    "--metrics-recording-only",
    "--disable-features=Translate,MediaRouter,OptimizationHints,DialMediaRouteProvider,AutofillServerCommunication,CertificateTransparencyComponentUpdater,InterestFeedContentSuggestions,NetworkTimeServiceQuerying",
    // WebRTC may send UDP only through the proxy, i.e. never. Desktop Chromium reads the policy from the
    // first switch; the headless shell only from the second one's value (HeadlessWebContentsImpl): without
    // it a page's RTCPeerConnection sent STUN packets to a loopback canary (tests/security/network.test.ts).
    "--webrtc-ip-handling-policy=disable_non_proxied_udp",
    "--force-webrtc-ip-handling-policy=disable_non_proxied_udp",
  ];
}

const alwaysAllowed = /^(data|blob|about):/i;

/** Schemes a page could fetch from besides data:, blob: and about:. */
const fetchingSchemes = [
  "http",
  "https",
  "ws",
  "wss",
  "file",
  "ftp",
  "filesystem",
  "chrome",
  "chrome-extension",
  "chrome-untrusted",
  "devtools",
];

/**
 * URL patterns for CDP Network.setBlockedURLs: Chromium's renderer refuses these itself, before
 * request interception sees them. That is a layer more, covers WebSockets (which interception does
 * not), and spares the round trip to the driver for every blocked request (a page with one remote
 * logo loaded 3-4 ms sooner). Only https can be on an allow-list, so only it is left to interception then.
 */
export function blockedUrlPatterns(allowHosts: readonly string[]): string[] {
  return fetchingSchemes.filter((s) => !(s === "https" && allowHosts.length > 0)).map((s) => `${s}:*`);
}

/**
 * Whether the page may request this URL. Public https hosts are allowed only when the operator
 * listed them; the egress proxy then checks the address each name resolves to.
 */
export function isRequestAllowed(url: string, allowHosts: readonly string[]): boolean {
  if (alwaysAllowed.test(url)) return true;
  if (allowHosts.length === 0) return false;
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return false;
  }
  if (u.protocol !== "https:" || u.username || u.password) return false;
  return hostAllowed(u.hostname, allowHosts);
}

/** Matches a hostname against "example.com" and "*.example.com" entries. */
export function hostAllowed(hostname: string, allowHosts: readonly string[]): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, "");
  return allowHosts.some((entry) =>
    entry.startsWith("*.") ? host.endsWith(entry.slice(1)) && host.length > entry.length - 1 : host === entry,
  );
}
