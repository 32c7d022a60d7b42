import { BlockList, isIP } from 'node:net';
import { IsOptional, ValidateBy } from 'class-validator';
import type { ConfigClass } from './config-mixin';

/** Named ranges Fastify's proxy-addr understands. */
const KEYWORDS = new Set(['loopback', 'linklocal', 'uniquelocal']);

/**
 * TRUSTED_PROXIES as a list for Fastify's trustProxy: `none` trusts nobody;
 * otherwise comma-separated addresses, CIDR ranges or the keywords loopback,
 * linklocal, uniquelocal.
 */
export function trustedProxyList(value: string): string[] {
  const entries = value.split(',').map((entry) => entry.trim()).filter(Boolean);
  return entries.length === 1 && entries[0] === 'none' ? [] : entries;
}

/** Why an entry of TRUSTED_PROXIES is unusable, or undefined. */
function entryProblem(entry: string): string | undefined {
  if (KEYWORDS.has(entry)) return undefined;
  const slash = entry.indexOf('/');
  const address = slash < 0 ? entry : entry.slice(0, slash);
  const family = isIP(address);
  if (family === 0) return `"${entry.slice(0, 60)}" is not an IP address, CIDR range or keyword`;
  if (slash < 0) return undefined;
  const prefix = entry.slice(slash + 1);
  const bits = /^\d{1,3}$/.test(prefix) ? Number(prefix) : NaN;
  if (!(bits >= 0 && bits <= (family === 4 ? 32 : 128))) return `"${entry.slice(0, 60)}" has an invalid prefix length`;
  // 0.0.0.0/0 and the like trust the whole internet: any client could name its own address and escape its budgets.
  const shortest = family === 4 ? SHORTEST_IPV4_PREFIX : inMappedIpv4(address, bits) ? MAPPED_IPV4_OFFSET + SHORTEST_IPV4_PREFIX : SHORTEST_IPV6_PREFIX;
  return bits >= shortest ? undefined : `"${entry.slice(0, 60)}" trusts too wide a range (shorter than /${shortest}): every client could forge its address`;
}

/** Where IPv4-mapped IPv6 addresses (::ffff:a.b.c.d) start: the IPv4 address is their last 32 bits. */
const MAPPED_IPV4_OFFSET = 96;

/** The IPv4-mapped block, ::ffff:0:0/96. */
const MAPPED_BLOCK = new BlockList();
MAPPED_BLOCK.addSubnet('::ffff:0:0', MAPPED_IPV4_OFFSET, 'ipv6');

/**
 * Whether an IPv6 range holds IPv4-mapped addresses: one inside the mapped
 * block (`::ffff:64.0.0.0/98`) is how Fastify's proxy-addr matches IPv4
 * clients, so it is judged by its IPv4 part, as an IPv4 range is; one that
 * holds the whole block (`::ffff:0:0/96`, `::/8`) is refused with them.
 */
function inMappedIpv4(address: string, bits: number): boolean {
  const range = new BlockList();
  range.addSubnet(address, bits, 'ipv6');
  return MAPPED_BLOCK.check(address, 'ipv6') || range.check('::ffff:0.0.0.0', 'ipv6');
}

/** The widest ranges TRUSTED_PROXIES takes: a private network (10.0.0.0/8), the IPv6 unique local range (fc00::/7). */
const SHORTEST_IPV4_PREFIX = 8;
const SHORTEST_IPV6_PREFIX = 7;

/**
 * The peers whose X-Forwarded-For an HTTP app believes when it budgets by
 * client address. Default loopback: a reverse proxy or the checkout app on
 * the same host; an outside client can never connect from a loopback
 * address, so it cannot forge its address that way.
 */
export function WithTrustedProxies<T extends ConfigClass>(Base: T) {
  class TrustedProxiesConfig extends Base {
    @IsOptional()
    @ValidateBy({
      name: 'isTrustedProxyList',
      validator: {
        validate: (value) => typeof value === 'string' && (value.trim() === 'none' || trustedProxyList(value).every((entry) => !entryProblem(entry))),
        defaultMessage: (args) =>
          `${trustedProxyList(String(args?.value)).map(entryProblem).find(Boolean) ?? 'must not be empty'}; must be none or a comma-separated list of IP addresses, CIDR ranges, loopback, linklocal or uniquelocal (e.g. loopback,10.0.0.0/8)`,
      },
    })
    TRUSTED_PROXIES = 'loopback';
  }
  return TrustedProxiesConfig;
}
