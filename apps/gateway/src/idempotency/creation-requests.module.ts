import { Module } from '@nestjs/common';
import { CommandCreationRequests } from './creation-requests';
import { CreationRequestsPruner } from './creation-requests.pruner';

/** The Postgres records of the gateway's own creations' Idempotency-Keys: made for bus commands, and all of them pruned past their retention. */
@Module({
  providers: [CommandCreationRequests, CreationRequestsPruner],
  exports: [CommandCreationRequests],
})
export class CreationRequestsModule {}
