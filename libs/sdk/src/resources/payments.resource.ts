import type { ListIterator } from '../http/list';
import type { RequestOptions } from '../http/transport';
import type { ListPaymentsParams, Payment } from '../types';
import { Resource } from './resource';

/** Payments: the API's transactions (GET /v1/payments). */
export class Payments extends Resource {
  /** Newest first: `for await (const payment of client.payments.list({ status: 'CONFIRMED' }))`. */
  list(params: ListPaymentsParams = {}, options: RequestOptions = {}): ListIterator<Payment> {
    return this.paged<Payment>('listPayments', { ...params }, options);
  }
}
