import type { JetStreamManager, NatsConnection } from 'nats';
import { streamName } from '../jetstream/ensure-stream';
import { CONSUMER_ACK_PENDING, CONSUMER_PENDING } from './metric-catalog';
import type { ServiceMetrics } from './service-metrics';

export interface DurableConsumer {
  namespace: string;
  /** The stream's name without the namespace, which is also its label: dashboards read alike in every deployment. */
  stream: string;
  consumer: string;
}

/**
 * Reports a durable JetStream consumer's backlog at each scrape: messages
 * not yet delivered (num_pending) and delivered but not acknowledged, both
 * from one consumer-info request, which every consumer identity may make.
 */
export function watchConsumerLag(metrics: ServiceMetrics, nc: NatsConnection, target: DurableConsumer): void {
  const labels = { stream: target.stream, consumer: target.consumer };
  const stream = streamName(target.namespace, target.stream);
  let jsm: Promise<JetStreamManager> | undefined;
  metrics.readAtScrapeTogether({ pending: CONSUMER_PENDING, ackPending: CONSUMER_ACK_PENDING }, async () => {
    jsm ??= nc.jetstreamManager({ checkAPI: false });
    const info = await (await jsm).consumers.info(stream, target.consumer);
    return { pending: [{ labels, value: info.num_pending }], ackPending: [{ labels, value: info.num_ack_pending }] };
  });
}
