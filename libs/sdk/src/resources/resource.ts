import { ListIterator } from '../http/list';
import type { ApiRequest, RequestOptions, Transport } from '../http/transport';
import { ROUTES, routePath, type RouteName } from '../routes';

/** What every resource does: call one route of the table and return its body. */
export abstract class Resource {
  constructor(protected readonly transport: Transport) {}

  protected async call<T>(route: RouteName, options: RequestOptions, input: Omit<ApiRequest, 'method' | 'path'> & { id?: string } = {}): Promise<T> {
    const { id, ...request } = input;
    const response = await this.transport.request<T>({ method: ROUTES[route].method, path: routePath(route, id), ...request }, options);
    return response.body;
  }

  protected paged<T extends { id: string }>(route: RouteName, params: Record<string, string | number | undefined> & { starting_after?: string }, options: RequestOptions): ListIterator<T> {
    const { starting_after, ...query } = params;
    return new ListIterator<T>(
      (cursor, pageOptions) => this.transport.request<T[]>({ method: 'GET', path: routePath(route), query: { ...query, starting_after: cursor } }, pageOptions),
      starting_after,
      options,
    );
  }
}
