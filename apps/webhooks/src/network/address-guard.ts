import { lookup, Resolver } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import { withinDeadline } from '@pp/kernel';

/**
 * Which addresses a webhook may reach unless private URLs are allowed
 * (server-side request forgery): global unicast only. IPv4 is judged against
 * the IANA IPv4 special-purpose registry; IPv6 must be in 2000::/3 (global
 * unicast) and outside the special-purpose blocks there. Every form that
 * embeds or translates an IPv4 address (mapped, compatible, 6to4, NAT64,
 * Teredo) is refused outright rather than judged by the address inside.
 */
const REFUSED_V4: ReadonlyArray<readonly [network: string, prefix: number, why: string]> = [
  ['0.0.0.0', 8, '"this network"'],
  ['10.0.0.0', 8, 'private'],
  ['100.64.0.0', 10, 'carrier-grade NAT'],
  ['127.0.0.0', 8, 'loopback'],
  ['169.254.0.0', 16, 'link-local, incl. 169.254.169.254 metadata'],
  ['172.16.0.0', 12, 'private'],
  ['192.0.0.0', 24, 'IETF protocol assignments, incl. 192.0.0.192 Oracle metadata'],
  ['192.0.2.0', 24, 'documentation (TEST-NET-1)'],
  ['192.88.99.0', 24, '6to4 relay anycast'],
  ['192.168.0.0', 16, 'private'],
  ['198.18.0.0', 15, 'benchmarking'],
  ['198.51.100.0', 24, 'documentation (TEST-NET-2)'],
  ['203.0.113.0', 24, 'documentation (TEST-NET-3)'],
  ['224.0.0.0', 4, 'multicast'],
  ['240.0.0.0', 4, 'reserved, incl. 255.255.255.255 broadcast'],
];

/** Listed for the record: all but the last five lie outside 2000::/3 and are refused by the global-unicast rule anyway. */
const REFUSED_V6: ReadonlyArray<readonly [network: string, prefix: number, why: string]> = [
  ['::', 128, 'unspecified'],
  ['::1', 128, 'loopback'],
  ['::', 96, 'IPv4-compatible (deprecated)'],
  ['::ffff:0:0', 96, 'IPv4-mapped'],
  ['64:ff9b::', 96, 'NAT64 well-known prefix (could reach any IPv4)'],
  ['64:ff9b:1::', 48, 'NAT64 local-use'],
  ['100::', 64, 'discard-only'],
  ['fc00::', 7, 'unique local, incl. fd00:ec2::254 metadata'],
  ['fe80::', 10, 'link-local'],
  ['ff00::', 8, 'multicast'],
  ['2001::', 23, 'IETF protocol assignments, incl. Teredo 2001::/32'],
  ['2001:db8::', 32, 'documentation'],
  ['2002::', 16, '6to4 (embeds any IPv4)'],
  ['3fff::', 20, 'documentation'],
  ['5f00::', 16, 'segment routing SIDs'],
];

const refusedV4 = new BlockList();
for (const [network, prefix] of REFUSED_V4) refusedV4.addSubnet(network, prefix, 'ipv4');
const refusedV6 = new BlockList();
for (const [network, prefix] of REFUSED_V6) refusedV6.addSubnet(network, prefix, 'ipv6');
const globalUnicastV6 = new BlockList();
globalUnicastV6.addSubnet('2000::', 3, 'ipv6');

/** Names that always mean a metadata service, whatever DNS says. */
const METADATA_HOSTS = new Set(['metadata.google.internal', 'metadata', 'instance-data', 'metadata.azure.internal']);

/**
 * What every refusal says, whatever its reason: a name that does not resolve
 * and one that resolves to a private address get the same answer, and it
 * never names the address. Otherwise whoever registers an endpoint could map
 * the internal network (which names exist, where they point) through
 * registration answers and delivery attempt logs. The reason is kept for the
 * server's log (BlockedAddressError.detail).
 */
export const NOT_PUBLIC = 'the host does not resolve to a public internet address';

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

export class BlockedAddressError extends Error {
  /** Why the host was refused, for the server's log only: never shown to whoever registered the endpoint. */
  readonly detail: string;

  constructor(detail: string) {
    super(NOT_PUBLIC);
    this.name = 'BlockedAddressError';
    this.detail = detail;
  }
}

/** True for every address a webhook must not reach: anything but global unicast, and anything that is not an IP address. */
export function isBlockedAddress(address: string): boolean {
  switch (isIP(address)) {
    case 4:
      return refusedV4.check(address, 'ipv4');
    case 6:
      // A zone id (fe80::1%eth0) only exists on link-local addresses.
      return address.includes('%') || !globalUnicastV6.check(address, 'ipv6') || refusedV6.check(address, 'ipv6');
    default:
      return true;
  }
}

/**
 * Resolves `hostname` and returns the address to connect to. With the guard
 * on, every address the name resolves to must be public (a name that mixes
 * public and private answers is refused), so the caller can pin the
 * connection to an address that was checked.
 */
export async function resolveDeliveryAddress(hostname: string, allowPrivate: boolean): Promise<ResolvedAddress> {
  const host = unbracket(hostname).toLowerCase();
  if (!allowPrivate && METADATA_HOSTS.has(host.endsWith('.') ? host.slice(0, -1) : host)) throw new BlockedAddressError('a metadata service name');
  const literal = isIP(host);
  let addresses: ResolvedAddress[];
  if (literal) {
    addresses = [{ address: host, family: literal as 4 | 6 }];
  } else {
    addresses = await addressesOf(host, allowPrivate);
    if (addresses.length === 0) throw new BlockedAddressError('the name has no address (or DNS did not answer)');
  }
  const blocked = allowPrivate ? undefined : addresses.find((entry) => isBlockedAddress(entry.address));
  if (blocked) throw new BlockedAddressError(`resolves to a non-public address (${blocked.address})`);
  return addresses[0];
}

/** The name service calls a lookup makes (a seam for the specs; the system's by default). */
export interface NameService {
  resolve4(host: string): Promise<string[]>;
  resolve6(host: string): Promise<string[]>;
  /** getaddrinfo: the hosts file, then DNS. */
  lookup(host: string): Promise<ResolvedAddress[]>;
}

/**
 * DNS through c-ares, with its own timeout: a domain whose servers never
 * answer (an endpoint's owner controls its DNS) costs a timer here, where
 * getaddrinfo would hold one of the four libuv threads that every lookup,
 * file and crypto call shares, for as long as the system resolver waits.
 */
const dns = new Resolver({ timeout: 2000, tries: 2 });
const systemNameService: NameService = {
  resolve4: (host) => dns.resolve4(host),
  resolve6: (host) => dns.resolve6(host),
  lookup: (host) => lookup(host, { all: true, verbatim: true }) as Promise<ResolvedAddress[]>,
};

const LOOPBACK: ResolvedAddress[] = [
  { address: '127.0.0.1', family: 4 },
  { address: '::1', family: 6 },
];

/** DNS's answers that the name has no such record: the hosts file (localhost, names the platform adds) may still know it. */
const NOT_IN_DNS = new Set(['ENOTFOUND', 'ENODATA']);

/** How long a caller waits for the getaddrinfo fallback; the lookup itself may hold its thread longer. */
export const HOSTS_LOOKUP_WAIT_MS = 2000;

/**
 * Whether a getaddrinfo fallback is running. After the hosts file it asks
 * DNS again, and a name server that said "no such record" to c-ares can stay
 * silent now (an endpoint's owner controls its DNS), holding a libuv thread
 * for as long as the system resolver waits: one at a time, so such names hold
 * at most one of the four, and a name asked meanwhile gets no address (its
 * delivery attempt fails and is made again on the schedule).
 */
let hostsLookupRunning = false;

/**
 * Every address of the name: its A and AAAA records from DNS; only when DNS
 * says it has none, and `askHostsFile`, getaddrinfo (the hosts file), one
 * lookup at a time and waited for at most HOSTS_LOOKUP_WAIT_MS. DNS trouble
 * (no answer in time, a refusal, a server failure) answers none, without a
 * getaddrinfo lookup that would ask the same silent servers from the thread
 * pool. Where private addresses are refused, the hosts file is not asked: its
 * names (and those the resolver's search domains complete) are the
 * platform's own, refused anyway, and the slower answer for a name DNS does
 * not know would tell a merchant probing with endpoint URLs which internal
 * names exist.
 */
export async function addressesOf(host: string, askHostsFile: boolean, names: NameService = systemNameService): Promise<ResolvedAddress[]> {
  // RFC 6761: localhost names are loopback, whatever DNS (or its absence) says.
  if (/^(?:.+\.)?localhost\.?$/.test(host)) return LOOPBACK;
  const [v4, v6] = await Promise.allSettled([names.resolve4(host), names.resolve6(host)]);
  const found: ResolvedAddress[] = [
    ...(v4.status === 'fulfilled' ? v4.value.map((address) => ({ address, family: 4 as const })) : []),
    ...(v6.status === 'fulfilled' ? v6.value.map((address) => ({ address, family: 6 as const })) : []),
  ];
  if (found.length > 0) return found;
  const notInDns = [v4, v6].every((answer) => answer.status === 'rejected' && NOT_IN_DNS.has((answer.reason as NodeJS.ErrnoException)?.code ?? ''));
  if (!askHostsFile || !notInDns || hostsLookupRunning) return [];
  hostsLookupRunning = true;
  const lookup = names.lookup(host).finally(() => (hostsLookupRunning = false));
  return withinDeadline(lookup, HOSTS_LOOKUP_WAIT_MS, () => new Error(`${host}: no answer from the hosts file lookup within ${HOSTS_LOOKUP_WAIT_MS} ms`)).catch(() => []);
}

/** URL hostnames keep IPv6 literals in brackets ([::1]). */
const unbracket = (hostname: string): string =>
  hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
