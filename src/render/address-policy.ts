// Which IP addresses the egress proxy may connect to: only globally reachable unicast ones.
// Pure functions, no I/O. Anything that does not parse as an address is treated as NOT public,
// so a surprise (an unexpected spelling, a new special range) fails closed.

/**
 * Parses an IPv4 address the way the WHATWG URL host parser (and so Chromium) reads one:
 * 1 to 4 dot-separated parts, each decimal, octal (leading 0) or hex (0x); the last part fills the
 * remaining bytes ("127.1" = 127.0.0.1, "2130706433" = 127.0.0.1, "0177.0.0.1" = 127.0.0.1).
 * Returns the address as an unsigned 32-bit number, or undefined.
 */
export function parseIPv4(input: string): number | undefined {
  let s = input;
  if (s.endsWith(".")) s = s.slice(0, -1); // one trailing dot is allowed, as in URLs
  if (s === "") return undefined;
  const parts = s.split(".");
  if (parts.length > 4) return undefined;
  const nums: number[] = [];
  for (const p of parts) {
    const n = parseIPv4Part(p);
    if (n === undefined) return undefined;
    nums.push(n);
  }
  const last = nums.pop()!;
  if (nums.some((n) => n > 255)) return undefined;
  if (last >= 256 ** (4 - nums.length)) return undefined;
  let v = last;
  for (const [i, n] of nums.entries()) v += n * 256 ** (3 - i);
  return v >>> 0;
}

function parseIPv4Part(p: string): number | undefined {
  if (p === "") return undefined;
  let digits = p;
  let radix = 10;
  if (/^0x/i.test(p)) {
    digits = p.slice(2);
    radix = 16;
    if (digits === "") return 0; // "0x" is zero in the URL standard
    if (!/^[0-9a-f]+$/i.test(digits)) return undefined;
  } else if (p.length > 1 && p.startsWith("0")) {
    digits = p.slice(1);
    radix = 8;
    if (!/^[0-7]+$/.test(digits)) return undefined;
  } else if (!/^[0-9]+$/.test(p)) {
    return undefined;
  }
  // Parse digit by digit so huge inputs do not lose precision into a "valid" value.
  let v = 0;
  for (const c of digits) {
    v = v * radix + parseInt(c, radix);
    if (v > 0xffffffff) return undefined;
  }
  return v;
}

/**
 * Parses an IPv6 address into its eight 16-bit groups: "::" compression, an embedded dotted quad
 * in the last 32 bits ("::ffff:127.0.0.1"), optional brackets and a zone id ("fe80::1%eth0").
 */
export function parseIPv6(input: string): number[] | undefined {
  let s = input;
  if (s.startsWith("[") && s.endsWith("]")) s = s.slice(1, -1);
  const pct = s.indexOf("%");
  if (pct >= 0) {
    if (pct === s.length - 1) return undefined; // an empty zone id
    s = s.slice(0, pct);
  }
  if (!s.includes(":")) return undefined;
  const halves = s.split("::");
  if (halves.length > 2) return undefined;
  const parseSide = (side: string, allowV4Tail: boolean): number[] | undefined => {
    if (side === "") return [];
    const groups = side.split(":");
    const out: number[] = [];
    for (let i = 0; i < groups.length; i++) {
      const g = groups[i]!;
      if (i === groups.length - 1 && allowV4Tail && g.includes(".")) {
        const v4 = parseStrictDottedQuad(g);
        if (v4 === undefined) return undefined;
        out.push(v4 >>> 16, v4 & 0xffff);
      } else {
        if (!/^[0-9a-f]{1,4}$/i.test(g)) return undefined;
        out.push(parseInt(g, 16));
      }
    }
    return out;
  };
  if (halves.length === 1) {
    const all = parseSide(halves[0]!, true);
    return all && all.length === 8 ? all : undefined;
  }
  const head = parseSide(halves[0]!, false);
  const tail = parseSide(halves[1]!, true);
  if (!head || !tail || head.length + tail.length > 7) return undefined;
  return [...head, ...new Array<number>(8 - head.length - tail.length).fill(0), ...tail];
}

/** Four decimal octets, as inside an IPv6 address (no octal/hex/short forms there). */
function parseStrictDottedQuad(s: string): number | undefined {
  const parts = s.split(".");
  if (parts.length !== 4) return undefined;
  let v = 0;
  for (const p of parts) {
    if (!/^(0|[1-9][0-9]{0,2})$/.test(p)) return undefined;
    const n = Number(p);
    if (n > 255) return undefined;
    v = v * 256 + n;
  }
  return v >>> 0;
}

/** IPv4 ranges that are not globally reachable unicast: [network, prefix length]. */
const V4_SPECIAL: [number, number][] = (
  [
    ["0.0.0.0", 8], // "this network"
    ["10.0.0.0", 8], // private
    ["100.64.0.0", 10], // carrier-grade NAT
    ["127.0.0.0", 8], // loopback
    ["169.254.0.0", 16], // link-local, cloud metadata (169.254.169.254)
    ["172.16.0.0", 12], // private
    ["192.0.0.0", 24], // IETF protocol assignments (incl. 192.0.0.192 Oracle metadata)
    ["192.0.2.0", 24], // TEST-NET-1
    ["192.88.99.0", 24], // 6to4 relay anycast
    ["192.168.0.0", 16], // private
    ["198.18.0.0", 15], // benchmarking
    ["198.51.100.0", 24], // TEST-NET-2
    ["203.0.113.0", 24], // TEST-NET-3
    ["224.0.0.0", 4], // multicast
    ["240.0.0.0", 4], // reserved, broadcast
  ] as [string, number][]
).map(([a, len]) => [parseIPv4(a)!, len]);

function inV4Range(ip: number, net: number, len: number): boolean {
  if (len === 0) return true;
  const mask = (0xffffffff << (32 - len)) >>> 0;
  return (ip & mask) >>> 0 === (net & mask) >>> 0;
}

function isPublicV4(ip: number): boolean {
  return !V4_SPECIAL.some(([net, len]) => inV4Range(ip, net, len));
}

function embeddedV4(g: number[], from: number): number {
  return ((g[from]! << 16) | g[from + 1]!) >>> 0;
}

function isPublicV6(g: number[]): boolean {
  const [g0, g1, g2, g3, g4, g5] = g as [number, number, number, number, number, number];
  const first64Zero = g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0;
  if (first64Zero) {
    // ::/96 (unspecified, loopback, IPv4-compatible), ::ffff:0:0/96 (IPv4-mapped) and
    // ::ffff:0:0:0/96 (IPv4-translated) carry an IPv4 address: judge that one.
    // (:: and ::1 embed 0.0.0.0 and 0.0.0.1, which are in 0/8: not public.)
    if ((g4 === 0 && g5 === 0) || (g4 === 0 && g5 === 0xffff) || (g4 === 0xffff && g5 === 0)) return isPublicV4(embeddedV4(g, 6));
    return false; // the rest of ::/64 is unassigned
  }
  // 64:ff9b::/96, well-known NAT64 prefix: the embedded IPv4 address is what gets reached.
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0) return isPublicV4(embeddedV4(g, 6));
  // 2002::/16, 6to4: the relay is reached through the IPv4 address in bits 16-47.
  if (g0 === 0x2002) return isPublicV4(embeddedV4(g, 1));
  // Only 2000::/3 holds global unicast; everything else (fc00::/7 unique-local, fe80::/10
  // link-local, fec0::/10 site-local, ff00::/8 multicast, 100::/64 discard, 64:ff9b:1::/48
  // local NAT64, ...) is refused.
  if ((g0 & 0xe000) !== 0x2000) return false;
  // 2001::/23, IETF protocol assignments: Teredo (2001::/32), ORCHID, benchmarking, AMT, ...
  if (g0 === 0x2001 && g1 < 0x200) return false;
  if (g0 === 0x2001 && g1 === 0x0db8) return false; // documentation
  if (g0 === 0x3fff && g1 < 0x1000) return false; // 3fff::/20, documentation (RFC 9637)
  return true;
}

/**
 * Whether an address is a globally reachable unicast address the proxy may connect to.
 * Accepts IPv4 in any URL spelling and IPv6 with compression, embedded dotted quads, brackets
 * and zone ids; anything else (names, garbage) is not public.
 */
export function isPublicAddress(ip: string): boolean {
  const s = ip.trim();
  if (s.includes(":")) {
    const g = parseIPv6(s);
    return g ? isPublicV6(g) : false;
  }
  const v4 = parseIPv4(s);
  return v4 === undefined ? false : isPublicV4(v4);
}

/**
 * Whether a URL/CONNECT host is an IP literal rather than a name: anything with ":" or brackets,
 * or whose last label is a number (which the URL standard parses as IPv4, e.g. "0x7f.1").
 */
export function isIpLiteral(host: string): boolean {
  if (host.includes(":") || host.includes("[") || host.includes("]")) return true;
  const labels = host.replace(/\.$/, "").split(".");
  const last = labels[labels.length - 1] ?? "";
  return /^(0x[0-9a-f]*|[0-9]+)$/i.test(last);
}
