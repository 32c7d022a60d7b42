import { isBlockedAddress, resolveDeliveryAddress } from './address-guard';

describe('isBlockedAddress', () => {
  it.each([
    '127.0.0.1',
    '10.1.2.3',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '::1',
    '::',
    'fd00:ec2::254',
    'fc00::1',
    'fe80::1',
    '::ffff:127.0.0.1',
    '::ffff:10.0.0.1',
    'not-an-ip',
  ])('blocks %s', (address) => {
    expect(isBlockedAddress(address)).toBe(true);
  });

  it.each(['8.8.8.8', '172.32.0.1', '100.128.0.1', '2606:4700:4700::1111', '::ffff:1.1.1.1'])('allows %s', (address) => {
    expect(isBlockedAddress(address)).toBe(false);
  });
});

describe('resolveDeliveryAddress', () => {
  it('refuses literals, localhost and metadata names when the guard is on', async () => {
    await expect(resolveDeliveryAddress('127.0.0.1', false)).rejects.toThrow('private, loopback or metadata');
    await expect(resolveDeliveryAddress('[::1]', false)).rejects.toThrow('private, loopback or metadata');
    await expect(resolveDeliveryAddress('localhost', false)).rejects.toThrow('private, loopback or metadata');
    await expect(resolveDeliveryAddress('metadata.google.internal', false)).rejects.toThrow('metadata');
  });

  it('answers the checked address to pin, and lets private ones through when allowed', async () => {
    await expect(resolveDeliveryAddress('8.8.4.4', false)).resolves.toEqual({ address: '8.8.4.4', family: 4 });
    await expect(resolveDeliveryAddress('127.0.0.1', true)).resolves.toEqual({ address: '127.0.0.1', family: 4 });
  });
});
