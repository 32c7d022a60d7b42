import { IsBoolean, IsInt, IsObject, IsOptional, IsString, Length, Matches, Max, Min } from 'class-validator';

/**
 * Who and what caused an event, kept with it forever (PRODUCT-RULES §D2), so a
 * replay or a delivery days later still points at the request behind it.
 */
export interface EventMetadata {
  merchant_id: string;
  livemode: boolean;
  /** The Idempotency-Key of the request that created the event, if any. */
  idempotency_key?: string;
  /** Id of the command, job or event that caused this one. */
  causation_id?: string;
  /** Request id the whole flow shares (X-Request-Id). */
  correlation_id?: string;
  /** W3C trace context (traceparent, tracestate) of the append. */
  trace?: Record<string, string>;
}

/**
 * An event as a decider emits it and an append carries it: the ledger gives
 * it its id, position and version. Each aggregate names its own union of
 * these (`RefundEvent = Event<'refund.approved', RefundApprovedV1> | ...`), so
 * code that switches on `type` gets the matching `data` without a cast.
 */
export interface Event<T extends string = string, D extends object = object> {
  type: T;
  schema_version: number;
  data: D;
}

/** An event at schema version 1; its data is copied, so later changes to the object it came from cannot reach the stored event. */
export const atSchemaVersion1 = <const E extends Omit<Event, 'schema_version'>>(event: E): E & { schema_version: 1 } => ({
  ...event,
  schema_version: 1,
  data: { ...event.data },
});

/** A stored event of a known union: `Stored<RefundEvent>` narrows `data` on `type`. */
export type Stored<E extends Event> = E extends Event ? Omit<StoredEvent, 'type' | 'data'> & { type: E['type']; data: E['data'] } : never;

/** An event as stored by the ledger and published on JetStream. */
export interface StoredEvent<D = Record<string, unknown>> {
  /** evt_…: stable for ever (the JetStream Nats-Msg-Id; merchant-visible events show it). */
  id: string;
  /** Global position: increases with insertion, not necessarily with commit order. */
  position: number;
  stream_id: string;
  /** 1 for the first event of a stream. */
  version: number;
  type: string;
  schema_version: number;
  data: D;
  metadata: EventMetadata;
  created_at: string;
}

/** What the ledger's ValidationPipe checks of each `Event` of an append; code uses `Event`. */
export class EventBody implements Event {
  @IsString()
  @Matches(/^[a-z][a-z0-9_]*(\.[a-z][a-z0-9_]*)+$/, { message: 'type must be dotted lowercase words, e.g. session.created' })
  @Length(3, 120)
  type!: string;

  @IsInt()
  @Min(1)
  @Max(1000)
  schema_version!: number;

  @IsObject()
  data!: object;
}

/** Caller-supplied metadata of an append (the ledger adds the idempotency key, trace and request id). */
export class AppendMetadata {
  @IsString()
  @Length(1, 64)
  merchant_id!: string;

  @IsBoolean()
  livemode!: boolean;

  @IsOptional()
  @IsString()
  @Length(1, 255)
  causation_id?: string;
}
