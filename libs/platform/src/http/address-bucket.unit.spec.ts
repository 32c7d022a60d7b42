import { addressBucket } from './address-bucket';

describe('addressBucket (the unit a client address is budgeted by)', () => {
  it.each([
    ['an IPv4 address', '203.0.113.7', '203.0.113.7'],
    ['an IPv4-mapped IPv6 address', '::ffff:203.0.113.7', '203.0.113.7'],
    ['an IPv6 address', '2001:db8:1:2:3:4:5:6', '2001:db8:1:2::/64'],
    ['another address of the same /64', '2001:0db8:0001:0002:ffff::1', '2001:db8:1:2::/64'],
    ['a compressed address', '2001:db8::1', '2001:db8:0:0::/64'],
    ['loopback', '::1', '0:0:0:0::/64'],
    ['something that is not an address', 'garbage', 'unknown'],
  ])('given %s (%s), when bucketed, then it is %s', (_case, address, bucket) => {
    expect(addressBucket(address)).toBe(bucket);
  });

  it('given two different /64 networks, when bucketed, then they differ', () => {
    expect(addressBucket('2001:db8:1:2::1')).not.toBe(addressBucket('2001:db8:1:3::1'));
  });
});
