import { UnexpectedResponseError } from '../errors';
import { MAX_SERVER_SENT_EVENT_LENGTH, readServerSentEvents } from './server-sent-events';

async function* chunks(...parts: string[]) {
  for (const part of parts) yield new TextEncoder().encode(part);
}

const read = async (...parts: string[]) => {
  const messages = [];
  for await (const message of readServerSentEvents(chunks(...parts))) messages.push(message);
  return messages;
};

describe('reading a text/event-stream', () => {
  it('yields id, event and data of each message, across chunk boundaries', async () => {
    expect(await read('retry: 1000\n\nid: evt_1\nevent: payment.con', 'firmed\ndata: {"a":1}\n', '\n: keep-alive\n\nid: evt_2\ndata: x\n\n')).toEqual([
      { id: 'evt_1', event: 'payment.confirmed', data: '{"a":1}' },
      { id: 'evt_2', event: undefined, data: 'x' },
    ]);
  });

  it('joins multi-line data, accepts CRLF, and drops a message cut off by the end of the stream', async () => {
    expect(await read('data: one\r\ndata: two\r\n\r\ndata: unfinished\n')).toEqual([{ id: undefined, event: undefined, data: 'one\ntwo' }]);
  });

  it('given a CRLF split between two chunks, when read, then the CR is not part of the line', async () => {
    expect(await read('id: evt_1\r', '\ndata: x\r', '\n\r', '\n')).toEqual([{ id: 'evt_1', event: undefined, data: 'x' }]);
  });

  it('given a line as long as allowed, arriving in thousands of small chunks, when read, then it is one line, whole', async () => {
    const piece = new TextEncoder().encode('x'.repeat(16));
    const data = 'x'.repeat(MAX_SERVER_SENT_EVENT_LENGTH - piece.length);
    async function* smallChunks() {
      yield new TextEncoder().encode('data: ');
      for (let sent = 0; sent < data.length; sent += piece.length) yield piece;
      yield new TextEncoder().encode('\r\n\r\n');
    }
    const messages = [];
    for await (const message of readServerSentEvents(smallChunks())) messages.push(message);
    expect(messages.map((message) => message.data)).toEqual([data]);
  });

  it('given a line longer than allowed, never ended, when read, then it is an UnexpectedResponseError, not held whole in memory', async () => {
    const endless = 'x'.repeat(MAX_SERVER_SENT_EVENT_LENGTH / 4);
    await expect(read('data: ', endless, endless, endless, endless)).rejects.toThrow(UnexpectedResponseError);
    await expect(read(`data: ${'x'.repeat(MAX_SERVER_SENT_EVENT_LENGTH)}\n\n`)).rejects.toThrow(/a line longer than 1048576 characters/);
  });

  it('given a message whose data lines together are longer than allowed, when read, then it is an UnexpectedResponseError', async () => {
    const line = `data: ${'x'.repeat(1000)}\n`;
    await expect(read(line.repeat(MAX_SERVER_SENT_EVENT_LENGTH / 1000), '\n')).rejects.toThrow(/a message longer than 1048576 characters/);
    expect(await read(line.repeat(1000), '\n')).toHaveLength(1);
  });
});
