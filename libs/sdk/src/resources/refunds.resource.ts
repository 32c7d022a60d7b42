import type { ListIterator } from '../http/list';
import type { RequestOptions } from '../http/transport';
import type { CreateRefundParams, ListRefundsParams, Refund } from '../types';
import { Resource } from './resource';

/** Full refunds of CONFIRMED payments; test mode completes them at once. */
export class Refunds extends Resource {
  /** POST /v1/refunds */
  create(params: CreateRefundParams, options: RequestOptions = {}): Promise<Refund> {
    return this.call('createRefund', options, { body: params });
  }

  /** GET /v1/refunds/:id */
  retrieve(id: string, options: RequestOptions = {}): Promise<Refund> {
    return this.call('retrieveRefund', options, { id });
  }

  /** GET /v1/refunds, newest first. */
  list(params: ListRefundsParams = {}, options: RequestOptions = {}): ListIterator<Refund> {
    return this.paged<Refund>('listRefunds', { ...params }, options);
  }

  /** POST /v1/refunds/:id/cancel: withdraw a refund before it is approved. */
  cancel(id: string, options: RequestOptions = {}): Promise<Refund> {
    return this.call('cancelRefund', options, { id });
  }
}
