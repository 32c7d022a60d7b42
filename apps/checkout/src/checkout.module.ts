import { Module } from '@nestjs/common';
import { LivenessController, PodReadinessController } from '@pp/platform';
import { AssetsController } from './assets/assets.controller';
import { ClientSessionResolver } from './embed/client-session.resolver';
import { EmbedController } from './embed/embed.controller';
import { HostedPageController } from './hosted/hosted-page.controller';
import { PayerBudgets } from './http/payer-budgets';
import { PayerSessionReader } from './hosted/payer-session.reader';

@Module({
  controllers: [LivenessController, PodReadinessController, HostedPageController, EmbedController, AssetsController],
  providers: [PayerSessionReader, ClientSessionResolver, PayerBudgets],
})
export class CheckoutModule {}
