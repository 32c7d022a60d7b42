import { isIP } from 'node:net';

/**
 * The unit a client address is budgeted by: an IPv4 address (also when it
 * arrives IPv4-mapped, ::ffff:a.b.c.d), or the /64 network of an IPv6
 * address, since one subscriber usually holds a whole /64 and could
 * otherwise take a fresh address for every request.
 */
export function addressBucket(address: string): string {
  if (isIP(address) === 4) return address;
  if (isIP(address) !== 6) return 'unknown';
  const lower = address.toLowerCase();
  if (lower.startsWith('::ffff:') && isIP(lower.slice(7)) === 4) return lower.slice(7);
  return `${expandIpv6(lower).slice(0, 4).join(':')}::/64`;
}

/** The eight groups of an IPv6 address, without leading zeros (a zone id or embedded IPv4 tail is folded in). */
function expandIpv6(address: string): string[] {
  const withoutZone = address.split('%')[0];
  const [head, tail = ''] = withoutZone.split('::');
  const left = head ? head.split(':') : [];
  const right = withoutZone.includes('::') && tail ? tail.split(':') : [];
  const groups = [...left, ...Array<string>(Math.max(0, 8 - left.length - right.length)).fill('0'), ...right];
  return groups.map((group) => (group.includes('.') ? group : (parseInt(group, 16) || 0).toString(16)));
}
