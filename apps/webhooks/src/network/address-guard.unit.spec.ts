import { addressesOf, BlockedAddressError, HOSTS_LOOKUP_WAIT_MS, isBlockedAddress, type NameService, NOT_PUBLIC, type ResolvedAddress, resolveDeliveryAddress } from './address-guard';

describe('isBlockedAddress', () => {
  describe('given an IPv4 address in a special-purpose block (IANA registry)', () => {
    it.each([
      ['0.0.0.0/8 "this network"', ['0.0.0.0', '0.255.255.255']],
      ['10.0.0.0/8 private', ['10.0.0.0', '10.1.2.3', '10.255.255.255']],
      ['100.64.0.0/10 carrier-grade NAT', ['100.64.0.1', '100.127.255.255']],
      ['127.0.0.0/8 loopback', ['127.0.0.1', '127.255.255.254']],
      ['169.254.0.0/16 link-local and metadata', ['169.254.169.254', '169.254.0.1']],
      ['172.16.0.0/12 private', ['172.16.0.1', '172.31.255.255']],
      ['192.0.0.0/24 protocol assignments', ['192.0.0.1', '192.0.0.192']],
      ['192.0.2.0/24 documentation', ['192.0.2.1']],
      ['192.88.99.0/24 6to4 relay', ['192.88.99.1']],
      ['192.168.0.0/16 private', ['192.168.1.1', '192.168.255.255']],
      ['198.18.0.0/15 benchmarking', ['198.18.0.1', '198.19.255.255']],
      ['198.51.100.0/24 documentation', ['198.51.100.7']],
      ['203.0.113.0/24 documentation', ['203.0.113.9']],
      ['224.0.0.0/4 multicast', ['224.0.0.1', '239.255.255.250']],
      ['240.0.0.0/4 reserved', ['240.0.0.1', '255.255.255.254']],
      ['255.255.255.255 broadcast', ['255.255.255.255']],
    ])('when it is in %s, then it is refused', (_range, addresses) => {
      for (const address of addresses) expect([address, isBlockedAddress(address)]).toEqual([address, true]);
    });
  });

  describe('given an IPv6 address outside global unicast or in a special-purpose block', () => {
    it.each([
      [':: unspecified', ['::']],
      ['::1 loopback', ['::1']],
      ['::/96 IPv4-compatible', ['::127.0.0.1', '::8.8.8.8', '::a00:1']],
      ['::ffff:0:0/96 IPv4-mapped (even of a public IPv4)', ['::ffff:127.0.0.1', '::ffff:10.0.0.1', '::ffff:1.1.1.1', '::ffff:7f00:1']],
      ['64:ff9b::/96 NAT64', ['64:ff9b::a00:1', '64:ff9b::8.8.8.8']],
      ['64:ff9b:1::/48 local NAT64', ['64:ff9b:1::1', '64:ff9b:1:ffff::1']],
      ['100::/64 discard-only', ['100::1', '100::ffff:ffff:ffff:ffff']],
      ['fc00::/7 unique local and metadata', ['fc00::1', 'fd00:ec2::254']],
      ['fe80::/10 link-local (with or without a zone)', ['fe80::1', 'febf::1', 'fe80::1%eth0']],
      ['ff00::/8 multicast', ['ff02::1', 'ff0e::1']],
      ['2001::/23 protocol assignments and Teredo', ['2001::1', '2001:0:4136:e378::1', '2001:1ff::1']],
      ['2001:db8::/32 documentation', ['2001:db8::1']],
      ['2002::/16 6to4', ['2002:7f00:1::1', '2002:a00:1::1', '2002:808:808::1']],
      ['3fff::/20 documentation', ['3fff::1']],
      ['the rest of ::/3, 4000::/2 and beyond (not global unicast)', ['1::1', '4000::1', '8000::1', 'e000::1']],
    ])('when it is in %s, then it is refused', (_range, addresses) => {
      for (const address of addresses) expect([address, isBlockedAddress(address)]).toEqual([address, true]);
    });
  });

  describe('given something that is not an IP address', () => {
    it.each(['not-an-ip', '', '127.1', '0x7f000001', '1.2.3.4.5', '::ffff:999.0.0.1'])('when it is %p, then it is refused', (text) => {
      expect(isBlockedAddress(text)).toBe(true);
    });
  });

  describe('given a global unicast address', () => {
    it.each(['8.8.8.8', '1.1.1.1', '172.32.0.1', '172.15.255.255', '100.128.0.1', '100.63.255.255', '192.0.1.1', '198.20.0.1', '223.255.255.255',
      '2606:4700:4700::1111', '2001:4860:4860::8888', '2001:200::1', '2003::1', '3ffe::1', '2a00:1450:4001::200e'])(
      'when it is %s, then it is allowed',
      (address) => {
        expect(isBlockedAddress(address)).toBe(false);
      },
    );
  });
});

describe('resolveDeliveryAddress', () => {
  describe('given the guard is on', () => {
    it.each(['127.0.0.1', '[::1]', '[::ffff:127.0.0.1]', '[64:ff9b::a9fe:a9fe]', '[2002:a9fe:a9fe::1]', 'localhost', 'metadata.google.internal', 'METADATA.google.internal.'])(
      'when the host is %s, then it is refused with a message that names no address',
      async (host) => {
        const error = await resolveDeliveryAddress(host, false).then(
          () => undefined,
          (e: Error) => e,
        );
        expect(error?.message).toBe(NOT_PUBLIC);
      },
    );

    it('when the name does not resolve, then it is refused with the same message as a private one, the reason kept apart for the log', async () => {
      const refusal = (host: string) => resolveDeliveryAddress(host, false).then(() => undefined, (e: BlockedAddressError) => e);
      const [missing, loopback] = [await refusal('no-such-host.invalid'), await refusal('localhost')];
      expect([missing?.message, loopback?.message]).toEqual([NOT_PUBLIC, NOT_PUBLIC]);
      expect([missing?.detail, loopback?.detail]).toEqual(['the name has no address (or DNS did not answer)', 'resolves to a non-public address (127.0.0.1)']);
    });

    it('when the host is a public literal, then that address is answered for pinning', async () => {
      await expect(resolveDeliveryAddress('8.8.4.4', false)).resolves.toEqual({ address: '8.8.4.4', family: 4 });
      await expect(resolveDeliveryAddress('[2606:4700:4700::1111]', false)).resolves.toEqual({ address: '2606:4700:4700::1111', family: 6 });
    });
  });

  describe('given private URLs are allowed (dev and test)', () => {
    it('when the host is loopback, then it is answered', async () => {
      await expect(resolveDeliveryAddress('127.0.0.1', true)).resolves.toEqual({ address: '127.0.0.1', family: 4 });
    });
  });
});

describe('addressesOf', () => {
  const failing = (code: string) => () => Promise.reject(Object.assign(new Error(code), { code }));
  const names = (overrides: Partial<NameService>): NameService & { lookedUp: string[] } => {
    const lookedUp: string[] = [];
    return {
      resolve4: failing('ENOTFOUND'),
      resolve6: failing('ENOTFOUND'),
      lookup: async (host) => (lookedUp.push(host), [{ address: '127.0.0.1', family: 4 }]),
      ...overrides,
      lookedUp,
    };
  };

  it('given DNS answers, then every A and AAAA address, and no getaddrinfo lookup', async () => {
    const service = names({ resolve4: async () => ['93.184.215.14'], resolve6: async () => ['2606:2800:21f:cb07:6820:80da:af6b:8b2c'] });
    expect(await addressesOf('example.com', true, service)).toEqual([
      { address: '93.184.215.14', family: 4 },
      { address: '2606:2800:21f:cb07:6820:80da:af6b:8b2c', family: 6 },
    ]);
    expect(service.lookedUp).toEqual([]);
  });

  it('given DNS has no such name, then the hosts file is asked', async () => {
    const service = names({ resolve6: failing('ENODATA') });
    expect(await addressesOf('build-agent', true, service)).toEqual([{ address: '127.0.0.1', family: 4 }]);
    expect(service.lookedUp).toEqual(['build-agent']);
  });

  it('given private addresses refused (production), when DNS has no such name: none, at once, without asking the hosts file (no slower answer tells internal names apart)', async () => {
    const service = names({ resolve6: failing('ENODATA') });
    expect(await addressesOf('payments-db.prod.svc.cluster.local', false, service)).toEqual([]);
    expect(service.lookedUp).toEqual([]);
  });

  it('given a hosts-file lookup that never ends, then no address after the wait, and names asked meanwhile get none without a second thread', async () => {
    jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate'] });
    try {
      let finish: (addresses: ResolvedAddress[]) => void = () => undefined;
      const silent = names({ lookup: (host) => (silent.lookedUp.push(host), new Promise((resolve) => (finish = resolve))) });
      const first = addressesOf('silent.evil.example', true, silent);
      const meanwhile = await addressesOf('build-agent', true, silent);
      expect(meanwhile).toEqual([]);
      expect(silent.lookedUp).toEqual(['silent.evil.example']);

      await jest.advanceTimersByTimeAsync(HOSTS_LOOKUP_WAIT_MS);
      expect(await first).toEqual([]);
      // The abandoned lookup still holds its thread: until it ends, the next name is not looked up either.
      expect(await addressesOf('build-agent', true, silent)).toEqual([]);
      finish([]);
      await jest.advanceTimersByTimeAsync(0);
      const next = addressesOf('build-agent', true, silent);
      await jest.advanceTimersByTimeAsync(0);
      finish([{ address: '10.0.0.7', family: 4 }]);
      expect(await next).toEqual([{ address: '10.0.0.7', family: 4 }]);
      expect(silent.lookedUp).toEqual(['silent.evil.example', 'build-agent']);
    } finally {
      jest.useRealTimers();
    }
  });

  it('given a localhost name, then loopback, with nothing asked (RFC 6761), however DNS would answer', async () => {
    const service = names({ resolve4: async () => ['93.184.215.14'] });
    for (const host of ['localhost', 'localhost.', 'app.localhost']) {
      expect(await addressesOf(host, true, service)).toEqual([
        { address: '127.0.0.1', family: 4 },
        { address: '::1', family: 6 },
      ]);
    }
    expect(service.lookedUp).toEqual([]);
  });

  it('given DNS that does not answer in time or fails, then no address, and no getaddrinfo lookup of the same silent servers', async () => {
    for (const code of ['ETIMEOUT', 'ESERVFAIL', 'ECONNREFUSED']) {
      const service = names({ resolve4: failing(code) });
      expect(await addressesOf('slow-dns.example', true, service)).toEqual([]);
      expect(service.lookedUp).toEqual([]);
    }
  });
});
