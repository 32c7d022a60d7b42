import { Injectable } from '@nestjs/common';
import { DEPOSIT_ADDRESSES_PER_QUERY, type DepositAddressOwner } from '@pp/contracts';
import { Batcher, BusClient } from '@pp/platform';

const BUS_TIMEOUT_MS = 15_000;

const normalized = (address: string): string => address.trim().toLowerCase();

/**
 * Which merchant a notice was sent to, asked of the gateway (which owns
 * merchants). Notices being matched at the same moment ask in one request: a
 * lookup made while another is under way waits for it and goes with the
 * others in the next. A failed request fails every lookup in it; their
 * hand-offs are then repeated by the processing sweeper.
 */
@Injectable()
export class DepositAddressDirectory {
  private readonly lookups = new Batcher<string[], DepositAddressOwner | null>((batch) => this.ownersOf(batch));

  constructor(private readonly bus: BusClient) {}

  /** The owner of the first address (in the order given) that is a merchant's deposit address; null when none is. */
  ownerOf(addresses: string[]): Promise<DepositAddressOwner | null> {
    return this.lookups.add(addresses);
  }

  private async ownersOf(batch: string[][]): Promise<(DepositAddressOwner | null)[]> {
    const wanted = [...new Set(batch.flat().map(normalized))];
    const chunks = Array.from({ length: Math.ceil(wanted.length / DEPOSIT_ADDRESSES_PER_QUERY) }, (_, i) =>
      wanted.slice(i * DEPOSIT_ADDRESSES_PER_QUERY, (i + 1) * DEPOSIT_ADDRESSES_PER_QUERY),
    );
    const replies = await Promise.all(
      chunks.map((addresses) => this.bus.request('identity.merchants-by-deposit-address.v1', { addresses }, { timeoutMs: BUS_TIMEOUT_MS })),
    );
    const owners = new Map(replies.flatMap((reply) => reply.owners).map((owner) => [owner.address, owner]));
    return batch.map((addresses) => addresses.map((address) => owners.get(normalized(address))).find((owner) => owner !== undefined) ?? null);
  }
}
