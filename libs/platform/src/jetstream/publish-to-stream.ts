import { type ApiError, ErrorCode, type MsgHdrs, type NatsConnection, NatsError } from 'nats';
import { ReplyInbox } from '../nats/reply-inbox';

/** What JetStream answers a stored message with (its PubAck). */
export interface StreamAck {
  stream: string;
  seq: number;
  /** JetStream already held a message with this Nats-Msg-Id (within the stream's duplicate window) and kept that one. */
  duplicate: boolean;
}

/** As long as nats.js's `jetstream().publish` waits for an acknowledgement by default. */
const ACK_TIMEOUT_MS = 5000;

/**
 * Publishes to a JetStream stream and waits for its acknowledgement, as
 * `jetstream().publish` does, through the connection's ReplyInbox: a JetStream
 * publish is a request whose reply is the acknowledgement, and nats.js's own
 * request builds an error with its stack to cancel every one it has answered
 * (docs/PERFORMANCE.md). `msgID` goes in the Nats-Msg-Id header, by which
 * JetStream drops a message it already stored.
 */
export async function publishToStream(nc: NatsConnection, subject: string, data: Uint8Array, msgID: string, headers: MsgHdrs): Promise<StreamAck> {
  headers.set('Nats-Msg-Id', msgID);
  const reply = await ReplyInbox.of(nc).request(subject, data, headers, ACK_TIMEOUT_MS);
  const answer = JSON.parse(Buffer.from(reply.data).toString('utf8')) as Partial<StreamAck> & { error?: { code?: number; description?: string } };
  if (answer.error) {
    const refusal = new NatsError(answer.error.description ?? `JetStream refused the message on ${subject}`, String(answer.error.code ?? ErrorCode.JetStreamInvalidAck));
    // As nats.js's own publish carries it: isStorageFull and other readers of a refusal look there.
    refusal.api_error = answer.error as ApiError;
    throw refusal;
  }
  if (!answer.stream || typeof answer.seq !== 'number') throw NatsError.errorForCode(ErrorCode.JetStreamInvalidAck);
  return { stream: answer.stream, seq: answer.seq, duplicate: answer.duplicate === true };
}
