import { Injectable } from '@nestjs/common';
import type { HandoffResult, NoticeHandler } from './notice-handler';

/** Until matching exists, every notice simply waits for it; the hand-off row records that. */
@Injectable()
export class AwaitingMatchingNoticeHandler implements NoticeHandler {
  async handle(): Promise<HandoffResult> {
    return { disposition: 'awaiting_matching' };
  }
}
