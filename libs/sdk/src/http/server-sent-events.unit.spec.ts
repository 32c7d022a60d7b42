import { readServerSentEvents } from './server-sent-events';

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
});
