import { ErrorCode, REFUND_STAGE_RULE, type RefundEvent, RefundEventType } from '@pp/contracts';
import { deciderSpec, refusalOf } from '@pp/testing';
import { CLAIM_ABANDONED_AFTER_MS, decide, fold, refundAggregate, type RefundCommand, TEST_MODE_ACTOR } from './refund.decider';

const T0 = new Date('2026-11-22T01:00:00.000Z');
const T1 = new Date('2026-11-22T02:00:00.000Z');

const payment = (livemode: boolean) => ({ id: 'txn_1', merchant_id: 'mer_1', livemode, amount: 2500 });
const request = (livemode = true, reason: string | null = 'Customer changed their mind'): RefundCommand => ({
  kind: 'request',
  refundId: 'rf_1',
  payment: payment(livemode),
  requestedBy: 'key_1',
  reason,
  now: T0,
});
const approve: RefundCommand = { kind: 'approve', by: 'admin:a', now: T1 };
const reject: RefundCommand = { kind: 'reject', by: 'admin:a', rejectionReason: 'Outside the refund window', now: T1 };
const markSent: RefundCommand = { kind: 'mark_sent', by: 'admin:a', now: T1 };
const complete = (outboundReference = 'CA1XyZ', evidenceNote = 'Bank confirmation #991'): RefundCommand => ({
  kind: 'complete',
  by: 'admin:a',
  outboundReference,
  evidenceNote,
  now: T1,
});
const fail: RefundCommand = { kind: 'fail', by: 'admin:a', failureReason: 'Recipient account closed', now: T1 };
const cancel: RefundCommand = { kind: 'cancel', by: 'usr_owner', now: T1 };

const { given } = deciderSpec({ ...refundAggregate, decide });

const refusal = refusalOf;

const types = (events: RefundEvent[]) => events.map((event) => event.type);

/** The history events, as the commands above would have appended them. */
const requested = (livemode = true): RefundEvent => ({
  type: RefundEventType.Requested,
  schema_version: 1,
  data: {
    refund_id: 'rf_1',
    payment_id: 'txn_1',
    merchant_id: 'mer_1',
    livemode,
    amount: 2500,
    requested_by: 'key_1',
    reason: 'Customer changed their mind',
    requested_at: T0.toISOString(),
  },
});
const at = T1.toISOString();
const approved: RefundEvent = { type: RefundEventType.Approved, schema_version: 1, data: { refund_id: 'rf_1', approved_by: 'admin:a', approved_at: at } };
const rejected: RefundEvent = {
  type: RefundEventType.Rejected,
  schema_version: 1,
  data: { refund_id: 'rf_1', rejected_by: 'admin:a', rejection_reason: 'Outside the refund window', rejected_at: at },
};
const sent: RefundEvent = { type: RefundEventType.Sent, schema_version: 1, data: { refund_id: 'rf_1', sent_by: 'admin:a', sent_at: at } };
const completed: RefundEvent = {
  type: RefundEventType.Completed,
  schema_version: 1,
  data: {
    refund_id: 'rf_1',
    payment_id: 'txn_1',
    completed_by: 'admin:a',
    outbound_reference: 'CA1XyZ',
    evidence_note: 'Bank confirmation #991',
    completed_at: at,
  },
};
const failed: RefundEvent = {
  type: RefundEventType.Failed,
  schema_version: 1,
  data: { refund_id: 'rf_1', failed_by: 'admin:a', failure_reason: 'Recipient account closed', failed_at: at },
};
const cancelled: RefundEvent = { type: RefundEventType.Cancelled, schema_version: 1, data: { refund_id: 'rf_1', cancelled_by: 'usr_owner', cancelled_at: at } };

/** The histories that reach each stage in live mode. */
const AT = {
  REQUESTED: [requested()],
  APPROVED: [requested(), approved],
  REJECTED: [requested(), rejected],
  SENT: [requested(), approved, sent],
  COMPLETED: [requested(), approved, sent, completed],
  FAILED: [requested(), approved, sent, failed],
  CANCELLED: [requested(), cancelled],
} as const;

describe('refund decider (PRODUCT-RULES §3.3)', () => {
  it('given nothing, when a live refund is requested: REQUESTED for the full amount, waiting for an admin', () => {
    const history = given(requested());
    expect(types(given().when(request()))).toEqual([RefundEventType.Requested]);
    expect(history.state()).toMatchObject({
      id: 'rf_1',
      payment_id: 'txn_1',
      merchant_id: 'mer_1',
      livemode: true,
      amount: 2500,
      status: 'REQUESTED',
      requested_by: 'key_1',
      reason: 'Customer changed their mind',
      requested_at: T0.toISOString(),
      approved_at: null,
      completed_at: null,
    });
  });

  it('given nothing, when a test refund is requested: approved, sent and completed at once, with no outbound reference', () => {
    const events = given().when(request(false, '  '));
    expect(types(events)).toEqual([RefundEventType.Requested, RefundEventType.Approved, RefundEventType.Sent, RefundEventType.Completed]);
    expect(events[1].data).toMatchObject({ approved_by: TEST_MODE_ACTOR });
    expect(events[3].data).toMatchObject({ payment_id: 'txn_1', outbound_reference: null, evidence_note: null });
    expect(fold(events)).toMatchObject({
      status: 'COMPLETED',
      livemode: false,
      reason: null,
      requested_at: T0.toISOString(),
      approved_at: T0.toISOString(),
      sent_at: T0.toISOString(),
      completed_at: T0.toISOString(),
    });
  });

  it('given a refund, when requested again with its id: refused', () => {
    expect(refusal(() => given(requested()).when(request())).code).toBe(ErrorCode.Conflict);
  });

  it.each([
    ['approve', 'REQUESTED', approve, 'APPROVED', { approved_at: T1.toISOString() }],
    ['reject', 'REQUESTED', reject, 'REJECTED', { rejected_at: T1.toISOString(), rejection_reason: 'Outside the refund window' }],
    ['reject', 'APPROVED', reject, 'REJECTED', { rejected_at: T1.toISOString(), rejection_reason: 'Outside the refund window' }],
    ['mark_sent', 'APPROVED', markSent, 'SENT', { sent_at: T1.toISOString() }],
    ['complete', 'SENT', complete(), 'COMPLETED', { completed_at: T1.toISOString(), outbound_reference: 'CA1XyZ', evidence_note: 'Bank confirmation #991' }],
    ['fail', 'SENT', fail, 'FAILED', { failed_at: T1.toISOString(), failure_reason: 'Recipient account closed' }],
    ['cancel', 'REQUESTED', cancel, 'CANCELLED', { cancelled_at: T1.toISOString() }],
  ] as const)('given a %s-able %s refund, when %s: %s with its timestamp and inputs', (_kind, from, command, to, fields) => {
    const history = given(...AT[from]);
    const events = history.when(command);
    expect(events).toHaveLength(1);
    expect(fold(events, history.state())).toMatchObject({ status: to, ...fields });
  });

  it.each([
    ['approve', 'APPROVED', approve],
    ['reject', 'REJECTED', reject],
    ['mark_sent', 'SENT', markSent],
    ['complete', 'COMPLETED', complete()],
    ['fail', 'FAILED', fail],
    ['cancel', 'CANCELLED', cancel],
  ] as const)('given a %s already done (%s), when repeated: nothing', (_kind, stage, command) => {
    expect(given(...AT[stage]).when(command)).toEqual([]);
  });

  it('given a refund SENT (claimed) by admin:a, when another operator marks it sent: refused naming the holder, so only one of them sends the money', () => {
    const error = refusal(() => given(...AT.SENT).when({ ...markSent, by: 'adm_2' }));
    expect(error).toMatchObject({
      code: ErrorCode.Conflict,
      message: 'Refund is SENT; it is already claimed by admin:a',
      details: { rule: REFUND_STAGE_RULE, from: 'SENT', command: 'mark_sent' },
    });
  });

  it('given a refund SENT (claimed) by admin:a, when another operator fails it within a day: refused naming the holder, whose transfer may be going out', () => {
    const error = refusal(() => given(...AT.SENT).when({ ...fail, by: 'adm_2', now: new Date(T1.getTime() + CLAIM_ABANDONED_AFTER_MS - 1) }));
    expect(error).toMatchObject({
      code: ErrorCode.Conflict,
      message: `Refund is SENT; it is claimed by admin:a, who alone can fail it until ${new Date(T1.getTime() + CLAIM_ABANDONED_AFTER_MS).toISOString()}`,
      details: { rule: REFUND_STAGE_RULE, from: 'SENT', command: 'fail' },
    });
  });

  it('given a refund SENT (claimed) by admin:a a day ago, when another operator fails it: the abandoned claim is failed, naming who failed it', () => {
    const history = given(...AT.SENT);
    const events = history.when({ ...fail, by: 'adm_2', now: new Date(T1.getTime() + CLAIM_ABANDONED_AFTER_MS) });
    expect(events).toMatchObject([{ type: RefundEventType.Failed, data: { failed_by: 'adm_2' } }]);
    expect(fold(events, history.state())).toMatchObject({ status: 'FAILED' });
  });

  it('given a refund SENT (claimed) by admin:a, when another operator completes it with the bank’s reference: COMPLETED (a completion frees nothing)', () => {
    const events = given(...AT.SENT).when({ ...complete(), by: 'adm_2' } as RefundCommand);
    expect(events).toMatchObject([{ type: RefundEventType.Completed, data: { completed_by: 'adm_2', outbound_reference: 'CA1XyZ' } }]);
  });

  it('given an APPROVED refund, when marked sent: the state names who claimed it', () => {
    const history = given(...AT.APPROVED);
    expect(fold(history.when({ ...markSent, by: 'adm_7' }), history.state())).toMatchObject({ status: 'SENT', sent_by: 'adm_7' });
  });

  it('given a COMPLETED refund, when its completion is retried with the reference in another case or with spaces around it: nothing, not a refusal', () => {
    expect(given(...AT.COMPLETED).when(complete(' ca1xyz '))).toEqual([]);
  });

  it.each(['CA 1XyZ', 'c a 1 x y z', 'CA1 XYZ', 'CA1-XYZ', 'ca.1/x_yz'])('given a COMPLETED refund (CA1XyZ), when its completion is retried as %p: one reference however spaced or punctuated, so nothing', (spelt) => {
    expect(given(...AT.COMPLETED).when(complete(spelt))).toEqual([]);
  });

  it.each(['OTHER', 'CA1XY', 'CA1-XYZ2'])('given a COMPLETED refund (CA1XyZ), when completed again with %p: another reference, refused', (other) => {
    const error = refusal(() => given(...AT.COMPLETED).when(complete(other)));
    expect(error).toMatchObject({ code: ErrorCode.Conflict, message: 'Refund is COMPLETED with another outbound_reference' });
  });

  it('given a test refund (completed at once, with no reference), when an operator completes it with a reference: refused as completed, not as "another" reference', () => {
    const history = given().when(request(false));
    const error = refusal(() => given(...history).when(complete('CA1')));
    expect(error).toMatchObject({ code: ErrorCode.Conflict, message: 'Refund is COMPLETED; it cannot be completed', details: { rule: REFUND_STAGE_RULE } });
  });

  const VERBS = { approve: 'approved', reject: 'rejected', mark_sent: 'marked sent', complete: 'completed', fail: 'marked failed', cancel: 'cancelled' };
  const ALLOWED: Record<keyof typeof VERBS, readonly string[]> = {
    approve: ['REQUESTED', 'APPROVED'],
    reject: ['REQUESTED', 'APPROVED', 'REJECTED'],
    mark_sent: ['APPROVED', 'SENT'],
    complete: ['SENT', 'COMPLETED'],
    fail: ['SENT', 'FAILED'],
    // Not APPROVED: the operator may be sending the money (refund.decider.ts).
    cancel: ['REQUESTED', 'CANCELLED'],
  };
  const COMMANDS = { approve, reject, mark_sent: markSent, complete: complete(), fail, cancel };
  const refusals = (Object.keys(COMMANDS) as (keyof typeof COMMANDS)[]).flatMap((kind) =>
    (Object.keys(AT) as (keyof typeof AT)[]).filter((stage) => !ALLOWED[kind].includes(stage)).map((stage) => [kind, stage] as const),
  );

  it.each(refusals)('given a %s on a %s refund: refused, naming the stage', (kind, stage) => {
    const error = refusal(() => given(...AT[stage]).when(COMMANDS[kind]));
    expect(error).toMatchObject({
      code: ErrorCode.Conflict,
      message: `Refund is ${stage}; it cannot be ${VERBS[kind]}`,
      details: { rule: REFUND_STAGE_RULE, from: stage, command: kind },
    });
  });

  it.each([
    ['outbound_reference', complete('  ', 'ok')],
    ['evidence_note', complete('CA1', '\n\t ')],
    ['evidence_note', complete('CA1', '')],
  ] as const)('given a SENT refund, when completed without %s: validation failed', (field, command) => {
    const error = refusal(() => given(...AT.SENT).when(command));
    expect(error).toMatchObject({ code: ErrorCode.ValidationFailed, message: `Validation failed: ${field} is required` });
  });

  it('trims the completion inputs', () => {
    const history = given(...AT.SENT);
    expect(fold(history.when(complete('  CA1  ', ' checked '))!, history.state())).toMatchObject({ outbound_reference: 'CA1', evidence_note: 'checked' });
  });

  it.each([
    ['reject', 'REQUESTED', { ...reject, rejectionReason: ' ' }, 'rejection_reason'],
    ['fail', 'SENT', { ...fail, failureReason: '' }, 'failure_reason'],
  ] as const)('given a refund, when %s without a reason: validation failed', (_kind, stage, command, field) => {
    expect(refusal(() => given(...AT[stage]).when(command as RefundCommand)).message).toBe(`Validation failed: ${field} is required`);
  });

  it('given nothing, when any stage command: not found', () => {
    for (const command of Object.values(COMMANDS)) expect(refusal(() => given().when(command)).code).toBe(ErrorCode.NotFound);
  });
});
