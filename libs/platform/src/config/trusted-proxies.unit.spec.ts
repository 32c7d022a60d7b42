import { BaseConfig } from './config-schemas';
import { ConfigError, loadConfig } from './load-config';
import { trustedProxyList, WithTrustedProxies } from './trusted-proxies';

class ProxyConfig extends WithTrustedProxies(BaseConfig) {}

const load = (TRUSTED_PROXIES?: string) =>
  loadConfig(ProxyConfig, { NATS_URL: 'nats://gateway:p4f9a1c2e7b3d5a8c6e0f1a2b3c4d5e6f@127.0.0.1:4222', ...(TRUSTED_PROXIES === undefined ? {} : { TRUSTED_PROXIES }) });

describe('TRUSTED_PROXIES', () => {
  it('given nothing, when loaded, then loopback is trusted', () => {
    expect(trustedProxyList(load().TRUSTED_PROXIES)).toEqual(['loopback']);
  });

  it.each([
    ['none', []],
    ['10.0.0.0/8, 192.168.1.7', ['10.0.0.0/8', '192.168.1.7']],
    ['loopback,uniquelocal,fd00::/8,2001:db8::1', ['loopback', 'uniquelocal', 'fd00::/8', '2001:db8::1']],
    ['::ffff:10.0.0.0/104', ['::ffff:10.0.0.0/104']],
  ])('given %p, when loaded, then the list is %p', (value, list) => {
    expect(trustedProxyList(load(value).TRUSTED_PROXIES)).toEqual(list);
  });

  it.each([
    ['proxy.internal', '"proxy.internal" is not an IP address, CIDR range or keyword'],
    ['10.0.0.0/33', '"10.0.0.0/33" has an invalid prefix length'],
    ['10.0.0.0/8,*', '"*" is not an IP address, CIDR range or keyword'],
    ['0.0.0.0/0', '"0.0.0.0/0" trusts too wide a range (shorter than /8): every client could forge its address'],
    ['::/0', '"::/0" trusts too wide a range (shorter than /104): every client could forge its address'],
    // IPv4 clients are matched against IPv4-mapped IPv6 ranges: these trust all or a quarter of them, or a /7.
    ['::ffff:0:0/96', '"::ffff:0:0/96" trusts too wide a range (shorter than /104): every client could forge its address'],
    ['::/8', '"::/8" trusts too wide a range (shorter than /104): every client could forge its address'],
    ['::ffff:10.0.0.0/100', '"::ffff:10.0.0.0/100" trusts too wide a range (shorter than /104): every client could forge its address'],
    ['::ffff:64.0.0.0/98', '"::ffff:64.0.0.0/98" trusts too wide a range (shorter than /104): every client could forge its address'],
    ['::ffff:100.0.0.0/103', '"::ffff:100.0.0.0/103" trusts too wide a range (shorter than /104): every client could forge its address'],
  ])('given %p, when loaded, then boot stops naming the entry', (value, problem) => {
    expect(() => load(value)).toThrow(ConfigError);
    expect(() => load(value)).toThrow(`TRUSTED_PROXIES is invalid: ${problem}; must be none or a comma-separated list`);
  });
});
