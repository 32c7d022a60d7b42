import type { StreamConfig } from 'nats';
import { ingestRawBucketPlace, ingestRawEmailPlace, ledgerEventsPlace } from './jetstream-layout';
import { streamChanges } from './stream-check';

const place = ledgerEventsPlace('t1');
const asMade = { name: place.name, subjects: [...place.subjects], republish: place.republish } as StreamConfig;

describe('a service’s check of its stream', () => {
  it('given the stream as the migrate step made it, then nothing is changed', () => {
    expect(streamChanges(asMade, place)).toEqual([]);
    expect(streamChanges({ ...asMade, subjects: [...ingestRawBucketPlace('t1').subjects].reverse(), republish: undefined }, ingestRawBucketPlace('t1'))).toEqual([]);
    // As the server answers it: headers_only false spelled out.
    expect(streamChanges({ ...asMade, republish: { ...place.republish!, headers_only: false } }, place)).toEqual([]);
  });

  it('given the ledger events republished only where the layout says (merchant events, for the gateway to hear), then that is as made; more of them, or elsewhere, is named', () => {
    expect(place.republish).toEqual({ src: 't1.ledger.events.merchant.>', dest: 't1.ledger.feed.merchant.>' });
    expect(streamChanges({ ...asMade, republish: { src: 't1.ledger.events.>', dest: 't1.ledger.feed.merchant.>' } }, place)).toEqual(['it republishes into t1.ledger.feed.merchant.>']);
    expect(streamChanges({ ...asMade, republish: { ...place.republish!, headers_only: true } }, place)).toEqual(['it republishes into t1.ledger.feed.merchant.>']);
  });

  it('given no republication at all (a NATS server before 2.9.12 could not add it to the stream it held), then nothing is passed on and the check passes', () => {
    expect(streamChanges({ ...asMade, republish: undefined }, place)).toEqual([]);
  });

  it('given a stream that captures another identity’s replies too, then it names what it captures', () => {
    const changes = streamChanges({ ...asMade, subjects: [...place.subjects, '_INBOX_dashboard.>'] }, place);
    expect(changes).toEqual([expect.stringMatching(/^it captures \[.*"_INBOX_dashboard\.>".*\] instead of \["t1\.ledger\.events\.>"\]$/)]);
  });

  it('given a stream that passes its messages on, then each way is named', () => {
    const changed = {
      ...asMade,
      republish: { src: '>', dest: 'payments.verify.v1' },
      sources: [{ name: 'INGEST_EMAIL' }],
      mirror: { name: 'OBJ_INGEST_RAW' },
      subject_transform: { src: '>', dest: 'x.>' },
    } as StreamConfig;
    expect(streamChanges(changed, place)).toEqual([
      'it republishes into payments.verify.v1',
      'it sources INGEST_EMAIL',
      'it mirrors OBJ_INGEST_RAW',
      'it transforms subjects',
    ]);
  });

  it('given another stream’s subjects, then the check fails (a namespace set differently from the migrate step’s)', () => {
    expect(streamChanges({ ...asMade, subjects: ingestRawEmailPlace('t1').subjects }, place)).toHaveLength(1);
    expect(streamChanges(asMade, ledgerEventsPlace('t2'))).toHaveLength(2);
  });
});
