import { BaseRpcContext } from '@nestjs/microservices';
import type { IncomingMeta } from './bus-headers';

/** What a bus handler can learn about the message it is answering (`@Ctx() ctx: BusContext`). */
export class BusContext extends BaseRpcContext<[string, IncomingMeta]> {
  get subject(): string {
    return this.args[0];
  }
  get meta(): IncomingMeta {
    return this.args[1];
  }
}
