import type { AppendStreamsReply, StoredEvent } from '@pp/contracts';
import { RecentStreams } from './recent-streams';

const event = (streamId: string, version: number): StoredEvent => ({
  id: `evt_${streamId}_${version}`,
  position: version,
  stream_id: streamId,
  version,
  type: 'thing.happened',
  schema_version: 1,
  data: {},
  metadata: { merchant_id: 'mer_1', livemode: false },
  created_at: '2026-11-24T00:00:00.000Z',
});
const reply = (streamId: string, versions: number[], replayed = false): AppendStreamsReply => ({
  streams: [{ stream_id: streamId, version: versions[versions.length - 1], events: versions.map((version) => event(streamId, version)) }],
  replayed,
});
const append = (streamId: string, expected: number) => ({ stream_id: streamId, expected_version: expected, events: [] });

describe('RecentStreams', () => {
  it('given a new stream appended, when looked up: its events and version are remembered', () => {
    const recent = new RecentStreams();
    recent.appended([append('s1', 0)], reply('s1', [1]));
    expect(recent.get('s1')).toMatchObject({ version: 1, events: [{ version: 1 }] });
  });

  it('given a remembered stream, when an append continues it: the new events are added after the remembered ones', () => {
    const recent = new RecentStreams();
    recent.read('s1', { version: 1, events: [event('s1', 1)] });
    recent.appended([append('s1', 1)], reply('s1', [2, 3]));
    expect(recent.get('s1')?.events.map((e) => e.version)).toEqual([1, 2, 3]);
    expect(recent.get('s1')?.version).toBe(3);
  });

  it('given a remembered stream, when an append does not continue it (another version, or a replay): the stream is forgotten', () => {
    const recent = new RecentStreams();
    recent.read('s1', { version: 1, events: [event('s1', 1)] });
    recent.appended([append('s1', 2)], reply('s1', [3]));
    expect(recent.get('s1')).toBeUndefined();

    recent.read('s2', { version: 1, events: [event('s2', 1)] });
    recent.appended([append('s2', 1)], reply('s2', [2], true));
    expect(recent.get('s2')).toBeUndefined();
  });

  it('given an unknown stream, when appended past version 0: nothing is remembered (its earlier events are unknown)', () => {
    const recent = new RecentStreams();
    recent.appended([append('s1', 4)], reply('s1', [5]));
    expect(recent.get('s1')).toBeUndefined();
  });

  it('given more streams than it keeps, when one more is read: the least recently used is dropped', () => {
    const recent = new RecentStreams(2);
    recent.read('s1', { version: 0, events: [] });
    recent.read('s2', { version: 0, events: [] });
    recent.get('s1'); // s2 is now the least recently used
    recent.read('s3', { version: 0, events: [] });
    expect([recent.get('s1'), recent.get('s2'), recent.get('s3')].map((known) => known !== undefined)).toEqual([true, false, true]);
  });
});
