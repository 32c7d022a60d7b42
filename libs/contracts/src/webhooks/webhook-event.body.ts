/**
 * The JSON body POSTed to webhook endpoints (PRODUCT-RULES §6). It is serialised once
 * when the event is received and the same bytes are sent and signed on every
 * attempt.
 */
export interface WebhookEventBody {
  id: string;
  type: string;
  created_at: string;
  livemode: boolean;
  data: {
    reference: string;
    amount: number;
    status: string;
    metadata: Record<string, unknown> | null;
    session_id?: string;
    payment_id?: string;
  };
}
