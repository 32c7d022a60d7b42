import { DomainError, ErrorCode, type MerchantProfileView, type PayerSessionView } from '@pp/contracts';
import type { FastifyReply } from 'fastify';
import type { ClientSessionResolver } from '../embed/client-session.resolver';
import { EmbedController } from '../embed/embed.controller';
import { HostedPageController } from './hosted-page.controller';
import type { PayerSessionReader } from './payer-session.reader';

/*
 * The page routes answer through @Res(): a session status their switches do
 * not know (a newer sessions service mid-deploy) must end in an error the
 * payer error filter answers (503), never in a request left hanging.
 */
describe('the page routes given a session status they do not know', () => {
  const session = { id: `c${'0'.repeat(23)}`, merchant_id: 'm1', livemode: false, status: 'ON_HOLD' } as unknown as PayerSessionView;
  const merchant = { name: 'Maple Goods', etransfer_email: 'pay@shop.example', frame_ancestors: [] } as unknown as MerchantProfileView;
  const reader = { sessionWithMerchant: async () => ({ session, merchant }) } as unknown as PayerSessionReader;
  const reply = { send: jest.fn(), code: jest.fn(), header: jest.fn(), type: jest.fn() };

  it.each([
    ['hosted page', () => new HostedPageController(reader).page(session.id, undefined, undefined, reply as unknown as FastifyReply)],
    ['embedded page', () => new EmbedController(reader, {} as ClientSessionResolver).page(session.id, 'https://shop.example', undefined, undefined, reply as unknown as FastifyReply)],
  ])('then the %s fails as service unavailable instead of sending nothing', async (_route, open) => {
    const answer = open();
    await expect(answer).rejects.toThrow(DomainError);
    await expect(answer).rejects.toMatchObject({ code: ErrorCode.ServiceUnavailable, message: 'Unexpected checkout session status "ON_HOLD"' });
    expect(reply.send).not.toHaveBeenCalled();
  });
});
