import { UnexpectedResponseError } from '../errors';

/** One message of a text/event-stream. */
export interface ServerSentEvent {
  id?: string;
  event?: string;
  data: string;
}

/**
 * The longest line, and the most data one message may carry (in characters,
 * each at least one byte on the wire): an event is a few kilobytes, and a
 * stream that never ends its line or message would otherwise be held in
 * memory whole.
 */
export const MAX_SERVER_SENT_EVENT_LENGTH = 1024 * 1024;

/**
 * Splits a text/event-stream body into messages (the WHATWG rules this API
 * needs: `id`, `event`, multi-line `data`, comments and `retry` ignored).
 * Throws UnexpectedResponseError on a line or a message longer than
 * MAX_SERVER_SENT_EVENT_LENGTH.
 */
export async function* readServerSentEvents(body: AsyncIterable<Uint8Array>): AsyncGenerator<ServerSentEvent> {
  let message: { id?: string; event?: string; data: string[]; length: number } = { data: [], length: 0 };
  for await (const line of readLines(body)) {
    if (line === '') {
      if (message.data.length > 0) yield { id: message.id, event: message.event, data: message.data.join('\n') };
      message = { data: [], length: 0 };
      continue;
    }
    if (line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'data') {
      message.length += value.length + 1;
      if (message.length > MAX_SERVER_SENT_EVENT_LENGTH) throw tooLong('message');
      message.data.push(value);
    } else if (field === 'id') message.id = value;
    else if (field === 'event') message.event = value;
  }
}

/**
 * The body's lines, without their LF or CRLF. Each character is looked at
 * once: a line's unfinished start is kept as pieces and only new text is
 * searched, since searching a growing buffer on every chunk is quadratic in
 * the length of a line.
 */
async function* readLines(body: AsyncIterable<Uint8Array>): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  let unfinished: string[] = [];
  let unfinishedLength = 0;
  for await (const chunk of body) {
    const text = decoder.decode(chunk, { stream: true });
    let start = 0;
    let newline: number;
    while ((newline = text.indexOf('\n', start)) >= 0) {
      const line = unfinished.join('') + text.slice(start, newline);
      unfinished = [];
      unfinishedLength = 0;
      start = newline + 1;
      // A CR sent just before its LF may have ended the previous chunk: it is stripped here, once the line is whole.
      const withoutCr = line.endsWith('\r') ? line.slice(0, -1) : line;
      if (withoutCr.length > MAX_SERVER_SENT_EVENT_LENGTH) throw tooLong('line');
      yield withoutCr;
    }
    if (start < text.length) {
      unfinished.push(text.slice(start));
      unfinishedLength += text.length - start;
      // + 1: the CR of a CRLF may be among them.
      if (unfinishedLength > MAX_SERVER_SENT_EVENT_LENGTH + 1) throw tooLong('line');
    }
  }
}

const tooLong = (what: 'line' | 'message') =>
  new UnexpectedResponseError(`the event stream sent a ${what} longer than ${MAX_SERVER_SENT_EVENT_LENGTH} characters`);
