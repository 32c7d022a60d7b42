import type { JetStreamManager, NatsConnection } from 'nats';
import { STREAM_FILL } from './metric-catalog';
import type { ServiceMetrics } from './service-metrics';

export interface BoundedStream {
  /** The stream's name on the server (namespace included; `OBJ_<bucket>` for an object store). */
  name: string;
  /** The same without the namespace, its label: dashboards read alike in every deployment. */
  label: string;
}

/**
 * Reports at each scrape how full a stream with a byte limit is (bytes held over max_bytes), so
 * that an operator sees it filling before its writers are refused. Nothing while it has no limit.
 */
export function watchStreamFill(metrics: ServiceMetrics, nc: NatsConnection, stream: BoundedStream): void {
  let jsm: Promise<JetStreamManager> | undefined;
  metrics.readAtScrape(STREAM_FILL, async () => {
    jsm ??= nc.jetstreamManager({ checkAPI: false });
    const { config, state } = await (await jsm).streams.info(stream.name);
    return config.max_bytes > 0 ? [{ labels: { stream: stream.label }, value: state.bytes / config.max_bytes }] : [];
  });
}
