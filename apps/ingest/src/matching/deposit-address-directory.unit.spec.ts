import type { MerchantsByDepositAddressQuery, MerchantsByDepositAddressReply } from '@pp/contracts';
import type { BusClient } from '@pp/platform';
import { DepositAddressDirectory } from './deposit-address-directory';

/** The gateway's side of the lookup over a fixed registry, recording each request. */
function gatewayWith(registry: Record<string, string>) {
  const requests: string[][] = [];
  const bus = {
    request: async (_subject: string, query: MerchantsByDepositAddressQuery): Promise<MerchantsByDepositAddressReply> => {
      requests.push(query.addresses);
      return { owners: query.addresses.filter((address) => registry[address]).map((address) => ({ address, merchant_id: registry[address] })) };
    },
  };
  return { directory: new DepositAddressDirectory(bus as unknown as BusClient), requests };
}

describe('DepositAddressDirectory', () => {
  it('given notices matched at the same moment, when they look up their recipients, then one request answers all and each gets its own merchant', async () => {
    const { directory, requests } = gatewayWith({ 'a@shop.example': 'mer_a', 'b@shop.example': 'mer_b' });
    const owners = await Promise.all([
      directory.ownerOf(['a@shop.example']),
      directory.ownerOf(['nobody@example.com']),
      directory.ownerOf(['B@Shop.Example ']),
    ]);
    expect(owners).toEqual([{ address: 'a@shop.example', merchant_id: 'mer_a' }, null, { address: 'b@shop.example', merchant_id: 'mer_b' }]);
    expect(requests).toEqual([['a@shop.example', 'nobody@example.com', 'b@shop.example']]);
  });

  it('given a notice naming two registered addresses, when looked up, then the first in its own order wins (the signed recipient first)', async () => {
    const { directory } = gatewayWith({ 'a@shop.example': 'mer_a', 'b@shop.example': 'mer_b' });
    const [first, second] = await Promise.all([directory.ownerOf(['b@shop.example', 'a@shop.example']), directory.ownerOf(['a@shop.example', 'b@shop.example'])]);
    expect(first?.merchant_id).toBe('mer_b');
    expect(second?.merchant_id).toBe('mer_a');
  });

  it('given more addresses than one request may carry, when looked up together, then they are split across requests and still answered', async () => {
    const addresses = Array.from({ length: 1_200 }, (_, i) => `r${i}@shop.example`);
    const { directory, requests } = gatewayWith({ 'r1199@shop.example': 'mer_last' });
    const owners = await Promise.all(addresses.map((address) => directory.ownerOf([address])));
    expect(requests.map((request) => request.length)).toEqual([500, 500, 200]);
    expect(owners.filter(Boolean)).toEqual([{ address: 'r1199@shop.example', merchant_id: 'mer_last' }]);
  });
});
