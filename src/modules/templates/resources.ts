// Preflight (b): resources the page would ask for that the network policy refuses, so they would be
// missing from the PDF. The URLs are found in the HTML (the sample render's output when there is one, so
// URLs built from data count too) and classified by the renderer's own rules: isRequestAllowed()
// (render/network-policy.ts) decides as the page's request interception does, and an allowed host that is
// an IP literal is checked with the egress proxy's address policy (render/address-policy.ts).
import { isIpLiteral, isPublicAddress } from "../../render/address-policy";
import { isRequestAllowed } from "../../render/network-policy";
import type { Warning } from "./model";

// Attributes whose URL the page fetches by itself (an <a href> is a link in the PDF, never fetched).
const FETCHED_ATTR = /<(img|script|iframe|frame|embed|source|video|audio|track|input|object|link|image|use|feimage)\b[^>]*>/gi;
const ATTR = /\s(src|srcset|poster|data|href|xlink:href)\s*=\s*("([^"]*)"|'([^']*)'|([^\s>]+))/gi;
const CSS_URL = /url\(\s*(?:"([^"]*)"|'([^']*)'|([^)'"\s]+))\s*\)|@import\s+(?:"([^"]*)"|'([^']*)')/gi;

const decode = (s: string) =>
  s
    .replace(/&amp;/gi, "&")
    .replace(/&quot;/gi, '"')
    .replace(/&#39;|&apos;/gi, "'")
    .replace(/&lt;/gi, "<")
    .replace(/&gt;/gi, ">");

/** The URLs the page would fetch: fetched elements' attributes, and url()/@import in CSS. */
export function fetchedUrls(html: string): string[] {
  const urls: string[] = [];
  for (const tag of html.matchAll(FETCHED_ATTR)) {
    const name = tag[1]!.toLowerCase();
    for (const a of tag[0].matchAll(ATTR)) {
      const attr = a[1]!.toLowerCase();
      // <link href> fetches (stylesheets, fonts, icons); href elsewhere only on SVG <image>/<use>/<feImage>.
      if (attr === "href" && !["link", "image", "use", "feimage"].includes(name)) continue;
      const value = decode(a[3] ?? a[4] ?? a[5] ?? "");
      // Candidates are split at a comma followed by space: a data: URL has commas of its own.
      if (attr === "srcset") urls.push(...value.split(/,\s+/).map((c) => c.trim().split(/\s+/)[0] ?? ""));
      else urls.push(value.trim());
    }
  }
  for (const m of html.matchAll(CSS_URL)) urls.push(decode(m[1] ?? m[2] ?? m[3] ?? m[4] ?? m[5] ?? "").trim());
  return urls.filter((u) => u !== "" && !u.startsWith("#"));
}

/** Why the renderer refuses this URL, or undefined when it may load. */
export function refusal(url: string, allowHosts: readonly string[]): string | undefined {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    // The page is loaded as about:blank: a relative URL has nothing to resolve against.
    return "a relative URL: the page has no base address, so it cannot load; use an absolute https URL or a data: URL";
  }
  if (!isRequestAllowed(url, allowHosts)) {
    if (allowHosts.length === 0) return "the service loads no network resources (no --allow-hosts); embed it as a data: URL";
    if (u.protocol !== "https:") return `only https may be loaded, not ${u.protocol.replace(/:$/, "")}`;
    return `${u.hostname} is not on the operator's --allow-hosts list`;
  }
  if (u.protocol === "https:" && isIpLiteral(u.hostname) && !isPublicAddress(u.hostname.replace(/^\[|\]$/g, "")))
    return `${u.hostname} is a private, loopback or link-local address, which the egress proxy never connects to`;
  return undefined;
}

const MAX_LISTED = 50;

/** The blocked_resource warning for the HTML, or none. */
export function blockedResources(html: string, allowHosts: readonly string[]): Warning[] {
  const seen = new Map<string, string>();
  for (const url of fetchedUrls(html)) {
    if (/^asset:/i.test(url)) continue; // the account's asset library: inlined before printing (missing_asset otherwise)
    if (seen.has(url)) continue;
    const why = refusal(url, allowHosts);
    if (why) seen.set(url, why);
  }
  if (seen.size === 0) return [];
  const resources = [...seen.entries()].slice(0, MAX_LISTED).map(([url, reason]) => ({ url: url.slice(0, 2000), reason }));
  return [
    {
      code: "blocked_resource",
      message: `${seen.size} resource(s) will not load and will be missing from the PDF: ${resources
        .slice(0, 3)
        .map((r) => r.url.slice(0, 100))
        .join(", ")}${seen.size > 3 ? ", …" : ""}. See resources[].reason`,
      resources,
    },
  ];
}
