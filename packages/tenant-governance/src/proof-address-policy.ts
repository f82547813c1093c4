import { isIP } from 'node:net';

/** Address classes the HTTP file proof never connects to unless the allow-list names the address. */
export type InternalAddressClass =
  | 'unspecified'
  | 'loopback'
  | 'private'
  | 'shared-cgnat'
  | 'link-local'
  | 'metadata'
  | 'unique-local'
  | 'site-local'
  | 'multicast'
  | 'reserved'
  | 'documentation'
  | 'translation';

type Range = readonly [bytes: Uint8Array, prefixLength: number, addressClass: InternalAddressClass];

/** An address as its bytes (4 or 16); undefined when it is not an IP address. */
export function addressBytes(address: string): Uint8Array | undefined {
  const text = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address;
  const version = isIP(text);
  if (version === 4) return Uint8Array.from(text.split('.').map(Number));
  if (version !== 6) return undefined;
  const withoutZone = text.split('%')[0]!;
  let head = withoutZone;
  let tailWords: number[] = [];
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(withoutZone);
  if (dotted) {
    const [a, b, c, d] = dotted[1]!.split('.').map(Number) as [number, number, number, number];
    tailWords = [(a << 8) | b, (c << 8) | d];
    head = withoutZone.slice(0, -dotted[1]!.length);
    if (head.endsWith(':') && !head.endsWith('::')) head = head.slice(0, -1);
  }
  const [left, right] = head.includes('::') ? head.split('::') : [head, undefined];
  const words = (part: string | undefined) =>
    part
      ? part
          .split(':')
          .filter((word) => word.length > 0)
          .map((word) => Number.parseInt(word, 16))
      : [];
  const leading = words(left);
  const trailing = [...words(right), ...tailWords];
  const zeros = right === undefined ? [] : new Array<number>(8 - leading.length - trailing.length).fill(0);
  const all = [...leading, ...zeros, ...trailing];
  const bytes = new Uint8Array(16);
  all.forEach((word, index) => {
    bytes[index * 2] = word >> 8;
    bytes[index * 2 + 1] = word & 0xff;
  });
  return bytes;
}

function range(cidr: string, addressClass: InternalAddressClass): Range {
  const [address, prefix] = cidr.split('/');
  return [addressBytes(address!)!, Number(prefix), addressClass];
}

function inRange(bytes: Uint8Array, base: Uint8Array, prefixLength: number): boolean {
  if (bytes.length !== base.length) return false;
  for (let bit = 0; bit < prefixLength; bit += 8) {
    const index = bit / 8;
    const mask = prefixLength - bit >= 8 ? 0xff : (0xff << (8 - (prefixLength - bit))) & 0xff;
    if ((bytes[index]! & mask) !== (base[index]! & mask)) return false;
  }
  return true;
}

/** RFC 6890 special-purpose IPv4 ranges that are not the public internet. */
const ipv4Ranges: readonly Range[] = [
  range('169.254.169.254/32', 'metadata'),
  range('100.100.100.200/32', 'metadata'),
  range('0.0.0.0/8', 'unspecified'),
  range('10.0.0.0/8', 'private'),
  range('100.64.0.0/10', 'shared-cgnat'),
  range('127.0.0.0/8', 'loopback'),
  range('169.254.0.0/16', 'link-local'),
  range('172.16.0.0/12', 'private'),
  range('192.0.0.0/24', 'reserved'),
  range('192.0.2.0/24', 'documentation'),
  range('192.88.99.0/24', 'reserved'),
  range('192.168.0.0/16', 'private'),
  range('198.18.0.0/15', 'reserved'),
  range('198.51.100.0/24', 'documentation'),
  range('203.0.113.0/24', 'documentation'),
  range('224.0.0.0/4', 'multicast'),
  range('240.0.0.0/4', 'reserved'),
];

/** IPv6 ranges that are not the public internet (the forms embedding an IPv4 address are checked apart). */
const ipv6Ranges: readonly Range[] = [
  range('fd00:ec2::254/128', 'metadata'),
  range('::/128', 'unspecified'),
  range('::1/128', 'loopback'),
  range('64:ff9b:1::/48', 'translation'),
  range('100::/64', 'reserved'),
  range('2001::/32', 'translation'),
  range('2001:2::/48', 'reserved'),
  range('2001:10::/28', 'reserved'),
  range('2001:20::/28', 'reserved'),
  range('2001:db8::/32', 'documentation'),
  range('3fff::/20', 'documentation'),
  range('fc00::/7', 'unique-local'),
  range('fe80::/10', 'link-local'),
  range('fec0::/10', 'site-local'),
  range('ff00::/8', 'multicast'),
];

const nat64Prefix = addressBytes('64:ff9b::')!;

/**
 * The IPv4 address an IPv6 address carries, when it is one of the forms that reach an IPv4 host:
 * IPv4-mapped `::ffff:a.b.c.d`, IPv4-compatible `::a.b.c.d` (deprecated), NAT64 `64:ff9b::a.b.c.d` and 6to4
 * `2002:AABB:CCDD::`.
 */
function embeddedIpv4(bytes: Uint8Array): Uint8Array | undefined {
  if (bytes.length !== 16) return undefined;
  const zeroUpTo = (end: number) => bytes.subarray(0, end).every((byte) => byte === 0);
  if (zeroUpTo(10) && bytes[10] === 0xff && bytes[11] === 0xff) return bytes.slice(12);
  const unspecifiedOrLoopback = bytes.subarray(12, 15).every((byte) => byte === 0) && bytes[15]! <= 1;
  if (zeroUpTo(12) && !unspecifiedOrLoopback) return bytes.slice(12);
  if (inRange(bytes, nat64Prefix, 96)) return bytes.slice(12);
  if (bytes[0] === 0x20 && bytes[1] === 0x02) return bytes.slice(2, 6);
  return undefined;
}

/** The internal class of `address`, or undefined for a public (globally routed) address. */
export function internalAddressClass(address: string): InternalAddressClass | undefined {
  const bytes = addressBytes(address);
  if (!bytes) return 'reserved';
  if (bytes.length === 4) return ipv4Ranges.find(([base, prefix]) => inRange(bytes, base, prefix))?.[2];
  const embedded = embeddedIpv4(bytes);
  if (embedded) return ipv4Ranges.find(([base, prefix]) => inRange(embedded, base, prefix))?.[2];
  return ipv6Ranges.find(([base, prefix]) => inRange(bytes, base, prefix))?.[2];
}

/** True when `text` is an IP address or a CIDR range (`10.0.0.0/8`, `fd00::/8`) of either family. */
export function isAddressOrRange(text: string): boolean {
  const [address, prefix, extra] = text.split('/');
  if (extra !== undefined) return false;
  const bytes = addressBytes(address!);
  if (!bytes || address!.includes('%')) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= bytes.length * 8;
}

/**
 * True when an entry of `allowed` (addresses or CIDR ranges) covers `address`; an IPv6 form that embeds an
 * IPv4 address is covered by the IPv4 entries that cover the embedded address too.
 */
export function allowListCovers(allowed: readonly string[], address: string): boolean {
  const bytes = addressBytes(address);
  if (!bytes) return false;
  const candidates = [bytes, ...(bytes.length === 16 ? [embeddedIpv4(bytes)].filter(Boolean) : [])];
  return allowed.some((entry) => {
    const [base, prefix] = entry.split('/');
    const baseBytes = addressBytes(base!);
    if (!baseBytes) return false;
    const length = prefix === undefined ? baseBytes.length * 8 : Number(prefix);
    return candidates.some((candidate) => inRange(candidate!, baseBytes, length));
  });
}
