/** A shop order as this example keeps it: in memory, which a real backend would keep in its database. */
export interface Order {
  id: string;
  item: string;
  amount: number;
  status: 'awaiting_payment' | 'paid' | 'expired';
  session_id: string;
  payment_id?: string;
}

/**
 * The order book and the webhook rules that move it. Deliveries are at least
 * once and may come in any order, so each rule is idempotent: an event id seen
 * before changes nothing, and a paid order never goes back.
 */
export class OrderBook {
  private readonly orders = new Map<string, Order>();
  private readonly handledEvents = new Set<string>();
  private sequence = 0;

  /** A new order's id: its checkout session's reference, so it is needed before the order is kept. */
  newId(): string {
    return `order_${Date.now().toString(36)}_${++this.sequence}`;
  }

  /** Keeps an order once its checkout session exists, so a failed session call leaves no order behind. */
  add(id: string, item: string, amount: number, sessionId: string): Order {
    const order: Order = { id, item, amount, status: 'awaiting_payment', session_id: sessionId };
    this.orders.set(id, order);
    return order;
  }

  get(id: string): Order | undefined {
    return this.orders.get(id);
  }

  /** payment.confirmed for the order named by the session's reference: paid, if the amount is the order's. */
  markPaid(eventId: string, reference: string, amount: number, paymentId: string): Order | undefined {
    if (!this.firstTime(eventId)) return undefined;
    const order = this.orders.get(reference);
    if (!order || order.amount !== amount || order.status === 'paid') return undefined;
    order.status = 'paid';
    order.payment_id = paymentId;
    return order;
  }

  /** checkout.session.expired: an unpaid order's checkout can no longer be paid. */
  markExpired(eventId: string, reference: string): Order | undefined {
    if (!this.firstTime(eventId)) return undefined;
    const order = this.orders.get(reference);
    if (!order || order.status !== 'awaiting_payment') return undefined;
    order.status = 'expired';
    return order;
  }

  private firstTime(eventId: string): boolean {
    if (this.handledEvents.has(eventId)) return false;
    this.handledEvents.add(eventId);
    return true;
  }
}
