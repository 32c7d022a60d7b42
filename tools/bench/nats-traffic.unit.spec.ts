import { parsePrometheusText } from '@pp/testing';
import { natsTotalsOf, natsTrafficBetween } from './nats-traffic';

const exposition = [
  '# HELP pp_nats_messages_total Messages on the service’s NATS connection by direction',
  '# TYPE pp_nats_messages_total counter',
  'pp_nats_messages_total{direction="sent",service="ledger"} 120',
  'pp_nats_messages_total{service="ledger",direction="received"} 80',
  'pp_bus_client_requests_total{subject="ledger.append.v1",outcome="ok",service="ledger"} 99999',
  '',
].join('\n');

describe('NATS messages read from a service’s metrics', () => {
  it('given both directions, when parsed, then each is its own total and other series are not counted', () => {
    expect(natsTotalsOf(parsePrometheusText(exposition), 7)).toEqual({ pid: 7, sent: 120, received: 80 });
  });

  it('given metrics without the counter, when parsed, then both totals are zero', () => {
    expect(natsTotalsOf(parsePrometheusText('nodejs_eventloop_lag_seconds 0.01\n'), 7)).toEqual({ pid: 7, sent: 0, received: 0 });
  });

  it('given two readings of one process, when compared, then the messages per request are those in between', () => {
    const before = new Map([['ledger', { pid: 7, sent: 100, received: 40 }]]);
    const after = new Map([['ledger', { pid: 7, sent: 600, received: 290 }]]);
    expect(natsTrafficBetween(before, after, 100)).toEqual({ nats_sent_per_request: { ledger: 5 }, nats_received_per_request: { ledger: 2.5 } });
  });

  it('given a service restarted between the readings, when compared, then its new process counts from zero', () => {
    const before = new Map([['webhooks', { pid: 7, sent: 9000, received: 9000 }]]);
    const after = new Map([['webhooks', { pid: 8, sent: 300, received: 200 }]]);
    expect(natsTrafficBetween(before, after, 100)).toEqual({ nats_sent_per_request: { webhooks: 3 }, nats_received_per_request: { webhooks: 2 } });
  });
});
