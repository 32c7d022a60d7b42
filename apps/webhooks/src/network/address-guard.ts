import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

/**
 * Addresses a webhook may never reach unless private URLs are allowed
 * (server-side request forgery): this host, the private networks behind it,
 * and cloud metadata services.
 */
const BLOCKED = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local, incl. 169.254.169.254 metadata
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments (incl. 192.0.0.192 Oracle metadata)
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, incl. broadcast
] as const) {
  BLOCKED.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  ['::', 128], // unspecified
  ['::1', 128], // loopback
  ['fc00::', 7], // unique local, incl. fd00:ec2::254 metadata
  ['fe80::', 10], // link-local
  ['ff00::', 8], // multicast
  ['64:ff9b::', 96], // NAT64 of any IPv4 (could reach a private one)
] as const) {
  BLOCKED.addSubnet(network, prefix, 'ipv6');
}

/** Names that always mean a metadata service, whatever DNS says. */
const METADATA_HOSTS = new Set(['metadata.google.internal', 'metadata', 'instance-data', 'metadata.azure.internal']);

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

export class BlockedAddressError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BlockedAddressError';
  }
}

/** True for addresses a webhook must not reach; IPv4-mapped IPv6 (::ffff:10.0.0.1) is judged as its IPv4. */
export function isBlockedAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return BLOCKED.check(mapped[1], 'ipv4');
  const family = isIP(address);
  if (family === 0) return true;
  return BLOCKED.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/**
 * Resolves `hostname` and returns the address to connect to. With the guard
 * on, every address the name resolves to must be public (a name that mixes
 * public and private answers is refused), so the caller can pin the
 * connection to an address that was checked.
 */
export async function resolveDeliveryAddress(hostname: string, allowPrivate: boolean): Promise<ResolvedAddress> {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (!allowPrivate && METADATA_HOSTS.has(host.replace(/\.$/, ''))) {
    throw new BlockedAddressError(`${host} is a cloud metadata address`);
  }
  const literal = isIP(host);
  let addresses: ResolvedAddress[];
  if (literal) {
    addresses = [{ address: host, family: literal as 4 | 6 }];
  } else {
    try {
      addresses = (await lookup(host, { all: true, verbatim: true })) as ResolvedAddress[];
    } catch (error) {
      throw new BlockedAddressError(`${host} does not resolve (${(error as NodeJS.ErrnoException).code ?? 'DNS error'})`);
    }
    if (addresses.length === 0) throw new BlockedAddressError(`${host} does not resolve`);
  }
  if (!allowPrivate) {
    const blocked = addresses.find((entry) => isBlockedAddress(entry.address));
    if (blocked) throw new BlockedAddressError(`${host} resolves to a private, loopback or metadata address (${blocked.address})`);
  }
  return addresses[0];
}
