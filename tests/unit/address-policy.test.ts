// The egress proxy's address classifier: only globally reachable unicast addresses are public,
// whatever the spelling; anything unparseable fails closed.
import { describe, expect, test } from "bun:test";
import { isIpLiteral, isPublicAddress, parseIPv4, parseIPv6 } from "../../src/render/address-policy";

const notPublic: [string, string][] = [
  // IPv4 loopback, any spelling the URL parser accepts
  ["127.0.0.1", "loopback"],
  ["127.255.255.254", "loopback /8 end"],
  ["127.1", "short loopback"],
  ["127.0.1", "three-part loopback"],
  ["2130706433", "decimal loopback"],
  ["0177.0.0.1", "octal loopback"],
  ["0177.0.0.01", "octal parts"],
  ["017700000001", "single octal number"],
  ["0x7f000001", "hex loopback"],
  ["0X7F000001", "upper-case hex loopback"],
  ["0x7f.0.0.1", "hex first octet"],
  ["0x7f.1", "hex short"],
  ["127.0.0.1.", "trailing dot"],
  [" 127.0.0.1 ", "surrounding spaces"],
  // this network, broadcast
  ["0.0.0.0", "unspecified"],
  ["0", "zero"],
  ["0.1.2.3", "0/8"],
  ["255.255.255.255", "broadcast"],
  ["4294967295", "decimal broadcast"],
  // private, CGNAT, link-local, metadata
  ["10.0.0.1", "10/8"],
  ["10.255.255.255", "10/8 end"],
  ["012.0.0.1", "octal 10/8"],
  ["167772161", "decimal 10.0.0.1"],
  ["100.64.0.1", "CGNAT start"],
  ["100.127.255.255", "CGNAT end"],
  ["169.254.169.254", "cloud metadata"],
  ["0xa9fea9fe", "hex metadata"],
  ["2852039166", "decimal metadata"],
  ["0251.0376.0251.0376", "octal metadata"],
  ["169.254.0.1", "link-local"],
  ["172.16.0.1", "172.16/12 start"],
  ["172.31.255.255", "172.16/12 end"],
  ["192.168.1.1", "192.168/16"],
  ["192.168.0.0", "192.168/16 network"],
  // special-purpose and documentation
  ["192.0.0.1", "192.0.0/24"],
  ["192.0.0.192", "Oracle metadata"],
  ["192.0.2.2", "TEST-NET-1 (this box's eth0)"],
  ["192.88.99.1", "6to4 relay anycast"],
  ["198.18.0.1", "benchmarking"],
  ["198.19.255.255", "benchmarking end"],
  ["198.51.100.7", "TEST-NET-2"],
  ["203.0.113.9", "TEST-NET-3"],
  ["224.0.0.1", "multicast"],
  ["239.255.255.250", "SSDP multicast"],
  ["240.0.0.1", "reserved"],
  // IPv6 loopback and unspecified, in many spellings
  ["::1", "v6 loopback"],
  ["[::1]", "bracketed v6 loopback"],
  ["0:0:0:0:0:0:0:1", "full v6 loopback"],
  ["0000:0000:0000:0000:0000:0000:0000:0001", "zero-padded v6 loopback"],
  ["::0:1", "odd compression loopback"],
  ["::", "v6 unspecified"],
  ["[::]", "bracketed unspecified"],
  ["0::0", "unspecified spelled out"],
  ["::1%lo", "loopback with zone id"],
  // IPv4-mapped / compatible / translated forms of private addresses
  ["::ffff:127.0.0.1", "mapped loopback dotted"],
  ["[::ffff:127.0.0.1]", "bracketed mapped loopback"],
  ["::ffff:7f00:1", "mapped loopback hex"],
  ["::FFFF:7F00:0001", "mapped loopback upper-case"],
  ["0:0:0:0:0:ffff:7f00:1", "mapped loopback full"],
  ["::ffff:169.254.169.254", "mapped metadata"],
  ["::ffff:a9fe:a9fe", "mapped metadata hex"],
  ["::ffff:10.0.0.1", "mapped private"],
  ["::ffff:0.0.0.0", "mapped unspecified"],
  ["::127.0.0.1", "compatible loopback"],
  ["::7f00:1", "compatible loopback hex"],
  ["::ffff:0:127.0.0.1", "translated loopback"],
  ["::ffff:0:7f00:1", "translated loopback hex"],
  ["::1:0:0:1", "rest of ::/64"],
  // NAT64, 6to4, Teredo
  ["64:ff9b::127.0.0.1", "NAT64 loopback"],
  ["64:ff9b::7f00:1", "NAT64 loopback hex"],
  ["64:ff9b::a9fe:a9fe", "NAT64 metadata"],
  ["64:ff9b::10.1.2.3", "NAT64 private"],
  ["64:ff9b:1::8.8.8.8", "local-use NAT64"],
  ["2002:7f00:1::", "6to4 of loopback"],
  ["2002:7f00:0001:0:0:0:0:1", "6to4 of loopback, long"],
  ["2002:c0a8:0101::1", "6to4 of 192.168.1.1"],
  ["2002:a9fe:a9fe::", "6to4 of metadata"],
  ["2001:0:4136:e378:8000:63bf:3fff:fdd2", "Teredo"],
  ["2001::1", "Teredo prefix"],
  ["2001:10::1", "ORCHID"],
  ["2001:2::1", "benchmarking"],
  // unique-local, link-local, site-local, multicast, documentation, discard
  ["fc00::1", "unique-local fc"],
  ["fd00::2", "unique-local fd (this box's eth0)"],
  ["fd12:3456:789a::1", "unique-local"],
  ["fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", "unique-local end"],
  ["fe80::1", "link-local"],
  ["fe80::fc:ff:fe00:1%eth0", "link-local with zone"],
  ["[fe80::1%25eth0]", "bracketed link-local with URL-encoded zone"],
  ["febf::1", "link-local end"],
  ["fec0::1", "site-local"],
  ["feff::1", "site-local end"],
  ["ff02::1", "multicast all nodes"],
  ["ff05::1:3", "multicast"],
  ["2001:db8::1", "documentation"],
  ["2001:0db8:85a3::8a2e:370:7334", "documentation, long"],
  ["3fff::1", "documentation (RFC 9637)"],
  ["100::1", "discard"],
  ["100::", "discard prefix"],
  ["4000::1", "outside 2000::/3"],
  ["1::1", "outside 2000::/3, low"],
  // not addresses at all: fail closed
  ["", "empty"],
  ["localhost", "a name"],
  ["example.com", "a public name"],
  ["1.2.3.4.5", "five parts"],
  ["256.0.0.1", "octet too large"],
  ["1.2.3.256", "last part too large"],
  ["1.2.65536", "middle too large"],
  ["4294967296", "decimal too large"],
  ["0x100000000", "hex too large"],
  ["08.8.8.8", "invalid octal digit"],
  ["1..2.3", "empty part"],
  ["1.2.3.4..", "two trailing dots"],
  ["0xg.1.1.1", "invalid hex"],
  ["-1.2.3.4", "negative"],
  ["1.2.3.4/32", "with prefix"],
  ["1:2:3:4:5:6:7:8:9", "nine groups"],
  ["1::2::3", "two compressions"],
  ["12345::1", "group too long"],
  ["::ffff:127.0.0.1.1", "bad embedded quad"],
  ["::ffff:0177.0.0.1", "octal inside IPv6 is invalid"],
  ["::ffff:127.1", "short form inside IPv6 is invalid"],
  ["::1%", "empty zone"],
  ["[8.8.8.8]", "bracketed IPv4"],
  ["::g", "bad hex"],
  ["1:2:3:4:5:6:7::8", "compression with 8 groups"],
  [":1::", "leading single colon"],
];

const isPublic: [string, string][] = [
  ["93.184.216.34", "example.com's old address"],
  ["8.8.8.8", "public DNS"],
  ["1.1.1.1", "public DNS"],
  ["0x08080808", "hex spelling of a public address"],
  ["134744072", "decimal spelling of 8.8.8.8"],
  ["100.63.255.255", "just below CGNAT"],
  ["100.128.0.0", "just above CGNAT"],
  ["172.15.255.255", "just below 172.16/12"],
  ["172.32.0.0", "just above 172.16/12"],
  ["169.253.255.255", "just below link-local"],
  ["192.0.1.1", "between 192.0.0/24 and 192.0.2/24"],
  ["192.0.3.1", "just above TEST-NET-1"],
  ["192.167.255.255", "just below 192.168/16"],
  ["192.169.0.0", "just above 192.168/16"],
  ["198.17.255.255", "just below benchmarking"],
  ["198.20.0.0", "just above benchmarking"],
  ["223.255.255.255", "just below multicast"],
  ["11.0.0.1", "just above 10/8"],
  ["126.255.255.255", "just below loopback"],
  ["128.0.0.0", "just above loopback"],
  ["1.0.0.0", "just above 0/8"],
  ["2606:2800:220:1:248:1893:25c8:1946", "a public IPv6"],
  ["2a00:1450:4001:82a::200e", "a public IPv6, compressed"],
  ["[2606:4700:4700::1111]", "bracketed public IPv6"],
  ["2001:4860:4860::8888", "public IPv6 in 2001::/16 outside 2001::/23"],
  ["2001:200::1", "first address after 2001::/23"],
  ["::ffff:8.8.8.8", "mapped public"],
  ["::ffff:808:808", "mapped public, hex"],
  ["::ffff:0:8.8.8.8", "IPv4-translated public"],
  ["64:ff9b::8.8.8.8", "NAT64 of a public address"],
  ["2002:808:808::1", "6to4 of a public address"],
  ["3ffe::1", "below 3fff::/20"],
  ["3fff:1000::1", "just above 3fff::/20"],
];

describe("isPublicAddress", () => {
  test.each(notPublic)("%p is not public (%s)", (ip) => {
    expect(isPublicAddress(ip)).toBe(false);
  });
  test.each(isPublic)("%p is public (%s)", (ip) => {
    expect(isPublicAddress(ip)).toBe(true);
  });
});

describe("parseIPv4", () => {
  test.each([
    ["127.0.0.1", 0x7f000001],
    ["127.1", 0x7f000001],
    ["127.0.1", 0x7f000001],
    ["2130706433", 0x7f000001],
    ["0177.0.0.1", 0x7f000001],
    ["0x7f000001", 0x7f000001],
    ["0x7f.0x0.0x0.0x1", 0x7f000001],
    ["0x.0.0.1", 1],
    ["255.255.255.255", 0xffffffff],
    ["1.2.3.4.", 0x01020304],
  ] as [string, number][])("%p = %d", (s, v) => {
    expect(parseIPv4(s)).toBe(v);
  });
  test.each(["", ".", "1.2.3.4.5", "a.b.c.d", "256.1.1.1", "09", "1.2.3.4 ", "4294967296"])("%p is not IPv4", (s) => {
    expect(parseIPv4(s)).toBeUndefined();
  });
});

describe("parseIPv6", () => {
  const g = (s: string) =>
    parseIPv6(s)
      ?.map((n) => n.toString(16))
      .join(":");
  test.each([
    ["::", "0:0:0:0:0:0:0:0"],
    ["::1", "0:0:0:0:0:0:0:1"],
    ["1::", "1:0:0:0:0:0:0:0"],
    ["1:2:3:4:5:6:7:8", "1:2:3:4:5:6:7:8"],
    ["1::8", "1:0:0:0:0:0:0:8"],
    ["::ffff:127.0.0.1", "0:0:0:0:0:ffff:7f00:1"],
    ["[::ffff:7f00:1]", "0:0:0:0:0:ffff:7f00:1"],
    ["1:2:3:4:5:6:1.2.3.4", "1:2:3:4:5:6:102:304"],
    ["fe80::1%eth0", "fe80:0:0:0:0:0:0:1"],
    ["ABCD::EF", "abcd:0:0:0:0:0:0:ef"],
    ["1:2:3:4:5:6:7::", "1:2:3:4:5:6:7:0"],
    ["::2:3:4:5:6:7:8", "0:2:3:4:5:6:7:8"],
  ])("%p = %s", (s, want) => {
    expect(g(s)).toBe(want);
  });
  test.each([
    "",
    "1",
    "1:2",
    ":::",
    "1:2:3:4:5:6:7",
    "1:2:3:4:5:6:7:8:9",
    "1::2::3",
    "::1.2.3",
    "1.2.3.4::",
    "::1.2.3.4:1",
    "[::1",
    "::12345",
  ])("%p is not IPv6", (s) => {
    expect(parseIPv6(s)).toBeUndefined();
  });
});

describe("isIpLiteral", () => {
  test.each([
    "127.0.0.1",
    "2130706433",
    "0x7f000001",
    "0177.0.0.1",
    "127.1",
    "[::1]",
    "::1",
    "::ffff:127.0.0.1",
    "1.2.3.4.",
    "foo.0x7f",
    "foo.123",
    "0x",
  ])("%p is an IP literal", (h) => {
    expect(isIpLiteral(h)).toBe(true);
  });
  test.each(["localhost", "img.example.com", "localtest.me", "a1.example", "123.example.com", "x.0x7fg"])("%p is a name", (h) => {
    expect(isIpLiteral(h)).toBe(false);
  });
});
