import type { StreamConfig } from 'nats';
import { ingestRawBucketPlace, ingestRawEmailPlace, ledgerEventsPlace } from './jetstream-layout';
import { streamChanges } from './stream-check';

const place = ledgerEventsPlace('t1');
const asMade = { name: place.name, subjects: [...place.subjects] } as StreamConfig;

describe('a service’s check of its stream', () => {
  it('given the stream as the migrate step made it, then nothing is changed', () => {
    expect(streamChanges(asMade, place)).toEqual([]);
    expect(streamChanges({ ...asMade, subjects: [...ingestRawBucketPlace('t1').subjects].reverse() }, ingestRawBucketPlace('t1'))).toEqual([]);
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
    expect(streamChanges(asMade, ledgerEventsPlace('t2'))).toHaveLength(1);
  });
});
