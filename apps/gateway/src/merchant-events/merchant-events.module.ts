import { Module } from '@nestjs/common';
import { EventStreamController } from './event-stream.controller';
import { MerchantEventFeed } from './merchant-event.feed';
import { MerchantEventsController } from './merchant-events.controller';
import { OpenEventStreams } from './open-event-streams';

@Module({ controllers: [EventStreamController, MerchantEventsController], providers: [OpenEventStreams, MerchantEventFeed] })
export class MerchantEventsModule {}
