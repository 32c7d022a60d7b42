import type {
  CheckoutSessionCreatedView,
  CheckoutSessionView,
  CreateCheckoutSessionBody,
  CreateWebhookEndpointCommand,
  ExpireSessionBody,
  MerchantEventDetailView,
  MerchantEventType,
  MerchantEventView,
  PAYMENT_STATUSES,
  RefundView,
  RequestRefundBody,
  ResendEventReply,
  SimulatePaymentBody,
  SimulatePaymentReply,
  PaymentView,
  WebhookDeliveryAttemptView,
  WebhookEndpointView,
  WebhookEndpointWithSecretView,
  WebhookEventBody,
  WebhookSubjects,
} from '@pp/contracts';
import { TestStack } from '@pp/testing';
import { ROUTES } from './routes';
import type * as Sdk from './types';

/*
 * The SDK is published on its own, so it declares the wire shapes itself.
 * This spec keeps them the gateway's: the type checks below fail
 * `npm run typecheck` when a view in libs/contracts (the source of the
 * OpenAPI document too) and the SDK's declaration part, and the test fails
 * when a merchant route is added to or dropped from the served document
 * without the SDK following.
 */

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
/** Equal once the contracts' string enums are read as their wire values. */
type WireEqual<A, B, EnumKey extends keyof A & keyof B> = Equal<Omit<A, EnumKey>, Omit<B, EnumKey>> extends true
  ? Equal<A[EnumKey], `${B[EnumKey] & string}`>
  : false;
/** Request parameters: the same field names, and whatever the SDK lets a caller send the gateway's type accepts. */
type Sendable<Params, Body> = Equal<keyof Params, keyof Body> extends true ? (Params extends Body ? true : false) : false;
/** An intersection as one object type, which Equal compares field by field. */
type Flat<T> = { [K in keyof T]: T[K] };

/**
 * A delivery's data as the contracts declare it for every event type; the SDK
 * narrows it by type, each narrowing stated here: a payment event carries
 * payment_id, a session event its session_id (and, on completion, the
 * payment_id of the payment that completed it).
 */
type WireData = WebhookEventBody['data'];
type PaymentWireData = Flat<WireData & { payment_id: string }>;
type SessionWireData = Flat<WireData & { session_id: string }>;

const typesMatch: true[] = [
  true as Equal<Sdk.CheckoutSessionCreated, CheckoutSessionCreatedView>,
  true as Equal<Sdk.CheckoutSession, CheckoutSessionView>,
  true as Equal<Sdk.Payment, PaymentView>,
  true as Equal<Sdk.Event, MerchantEventView>,
  true as WireEqual<Sdk.WebhookDeliveryAttempt, WebhookDeliveryAttemptView, 'delivery_status'>,
  true as Equal<keyof Sdk.EventDetail, keyof MerchantEventDetailView>,
  true as Equal<Sdk.ResendEventResult, ResendEventReply>,
  true as Equal<Sdk.Refund, RefundView>,
  true as Equal<Sdk.WebhookEndpoint, WebhookEndpointView>,
  true as Equal<Sdk.WebhookEndpointWithSecret, WebhookEndpointWithSecretView>,
  true as Equal<Sdk.SimulatePaymentResult, Omit<SimulatePaymentReply, 'replayed'>>,
  true as Equal<Sdk.EventType, `${MerchantEventType}`>,
  true as Equal<Flat<Omit<Sdk.WebhookEvent, 'type' | 'data'>>, Omit<WebhookEventBody, 'type' | 'data'>>,
  true as Equal<Sdk.WebhookEvent['type'], Sdk.EventType>,
  true as Equal<Sdk.PaymentEventData, PaymentWireData>,
  true as Equal<Sdk.CheckoutSessionEventData, SessionWireData>,
  true as Equal<Extract<Sdk.WebhookEvent, { type: `payment.${string}` }>['data'], Sdk.PaymentEventData>,
  true as Equal<Extract<Sdk.WebhookEvent, { type: `checkout.session.${string}` }>['data'], Sdk.CheckoutSessionEventData>,
  true as Equal<Sdk.DeletedWebhookEndpoint, WebhookSubjects['webhooks.endpoints.delete.v1']['reply']>,
  true as Equal<typeof Sdk.PAYMENT_STATUSES, typeof PAYMENT_STATUSES>,
  true as Sendable<Sdk.CreateCheckoutSessionParams, CreateCheckoutSessionBody>,
  true as Sendable<Sdk.CreateRefundParams, RequestRefundBody>,
  true as Sendable<Sdk.CreateWebhookEndpointParams, Omit<CreateWebhookEndpointCommand, 'merchant_id' | 'livemode' | 'idempotency'>>,
  true as Sendable<Extract<Sdk.SimulatePaymentParams, { sessionId: string }>, SimulatePaymentBody>,
  true as Sendable<{ sessionId: string }, ExpireSessionBody>,
];

describe('SDK against the contracts and the served OpenAPI document', () => {
  let stack: TestStack;

  beforeAll(async () => {
    stack = await TestStack.start({ services: ['gateway'], label: 'sdk-drift' });
  });
  afterAll(() => stack?.stop());

  it('declares the wire types of libs/contracts (checked by the compiler)', () => {
    expect(typesMatch.every(Boolean)).toBe(true);
  });

  it('has a method for every merchant route of the document, and no route the document lacks', async () => {
    const response = await fetch(`${stack.url('gateway')}/v1/openapi.json`);
    const document = (await response.json()) as { paths: Record<string, Record<string, { security?: Array<Record<string, unknown>> }>> };
    const merchantRoutes = Object.entries(document.paths).flatMap(([path, operations]) =>
      Object.entries(operations)
        // Secret-key routes; /v1/client/ is the hosted page's, called from the browser with a publishable key.
        .filter(([, operation]) => operation.security?.some((requirement) => 'api_key' in requirement) && !path.startsWith('/v1/client/'))
        .map(([method]) => `${method.toUpperCase()} ${path}`),
    );
    const sdkRoutes = Object.values(ROUTES).map((route) => `${route.method} ${route.path}`);
    expect([...sdkRoutes].sort()).toEqual([...merchantRoutes].sort());
  });
});
