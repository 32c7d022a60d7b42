import { Module } from '@nestjs/common';
import { EventStreamController } from './event-stream.controller';
import { MerchantEventsController } from './merchant-events.controller';
import { OpenEventStreams } from './open-event-streams';

@Module({ controllers: [EventStreamController, MerchantEventsController], providers: [OpenEventStreams] })
export class MerchantEventsModule {}
