import { BusClient, connectNats } from '@pp/platform';
import { TestStack, testInfra, WebhookReceiver } from '@pp/testing';
import type { NatsConnection } from 'nats';
import { LedgerEventFixture } from '../intake/ledger-event.fixture';

/** The webhooks service alone on a test stack, with what its specs drive it by: the bus, the ledger's stream, a receiver. */
export interface WebhooksTestBed {
  stack: TestStack;
  bus: BusClient;
  ledger: LedgerEventFixture;
  receiver: WebhookReceiver;
  close(): Promise<void>;
}

export async function startWebhooksTestBed(label: string, env: Record<string, string> = {}): Promise<WebhooksTestBed> {
  const stack = await TestStack.start({ services: ['webhooks'], label, env });
  let nc: NatsConnection | undefined;
  try {
    nc = await connectNats(testInfra.natsUrl, `${label}-spec`);
    const ledger = new LedgerEventFixture(nc, stack.namespace);
    await ledger.createStream();
    const receiver = await WebhookReceiver.start();
    const connection = nc;
    return {
      stack,
      bus: new BusClient(nc, stack.namespace, 5000),
      ledger,
      receiver,
      close: async () => {
        await receiver.close();
        await connection.close();
        await stack.stop();
      },
    };
  } catch (error) {
    await nc?.close();
    await stack.stop();
    throw error;
  }
}
