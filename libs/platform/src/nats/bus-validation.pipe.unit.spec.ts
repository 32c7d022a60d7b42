import 'reflect-metadata';
import { type ArgumentMetadata, ValidationPipe } from '@nestjs/common';
import { AppendRequest, DomainError, ErrorCode } from '@pp/contracts';
import { BusValidationPipe } from './bus-validation.pipe';

/** The bus's pipe must answer exactly what Nest's ValidationPipe({ whitelist, transform }) answered before it. */
const nestPipe = new ValidationPipe({
  whitelist: true,
  transform: true,
  exceptionFactory: (errors) =>
    new DomainError(
      ErrorCode.ValidationFailed,
      `Validation failed: ${errors.flatMap((e) => Object.values(e.constraints ?? { [e.property]: `${e.property} is invalid` })).join('; ')}`,
    ),
});
const busPipe = new BusValidationPipe();
const payload: ArgumentMetadata = { type: 'body', metatype: AppendRequest };

const append = (overrides: Record<string, unknown> = {}) => ({
  stream_id: 'checkout_session-abc',
  expected_version: 0,
  events: [{ type: 'checkout_session.created', schema_version: 1, data: { amount: 2500, nested: { a: [1, 2] } } }],
  metadata: { merchant_id: 'mer_1', livemode: false },
  ...overrides,
});

async function outcome(pipe: { transform(value: unknown, metadata: ArgumentMetadata): unknown }, value: unknown, metadata = payload) {
  try {
    return { value: await pipe.transform(structuredClone(value), metadata) };
  } catch (error) {
    return { error: error instanceof DomainError ? error.toWire() : String(error) };
  }
}

describe('BusValidationPipe', () => {
  it.each([
    ['a valid append', append()],
    ['an unknown top-level property (whitelisted away)', append({ extra: 'dropped' })],
    ['an invalid stream id', append({ stream_id: 'not a stream' })],
    ['a nested event with a bad type', append({ events: [{ type: 'Bad Type', schema_version: 1, data: {} }] })],
    ['nested metadata missing', append({ metadata: undefined })],
    ['events that are not an array', append({ events: 'nope' })],
    ['an empty payload', {}],
  ])('given %s, when validated, then it answers what Nest’s ValidationPipe answered', async (_case, value) => {
    const [bus, nest] = await Promise.all([outcome(busPipe, value), outcome(nestPipe, value)]);
    expect(bus).toEqual(nest);
    if ('value' in bus) expect(bus.value).toBeInstanceOf(AppendRequest);
    else expect(bus.error).toMatchObject({ code: ErrorCode.ValidationFailed, message: expect.stringMatching(/^Validation failed: /) });
  });

  it('given a __proto__ key in the parsed JSON, when validated, then it is dropped rather than copied', async () => {
    const value = JSON.parse('{"stream_id":"checkout_session-abc","expected_version":0,"events":[{"type":"a.b","schema_version":1,"data":{}}],"metadata":{"merchant_id":"m","livemode":false},"__proto__":{"polluted":true}}');
    const result = (await busPipe.transform(value, payload)) as Record<string, unknown>;
    expect(result.polluted).toBeUndefined();
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('given a context parameter or an untyped payload, when piped, then it passes untouched', () => {
    const raw = { anything: true };
    expect(busPipe.transform(raw, { type: 'custom', metatype: AppendRequest })).toBe(raw);
    expect(busPipe.transform(raw, { type: 'body', metatype: Object })).toBe(raw);
  });
});
