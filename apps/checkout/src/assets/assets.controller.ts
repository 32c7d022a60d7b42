import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Controller, Get, Inject, Param, Res } from '@nestjs/common';
import { DomainError, ErrorCode } from '@pp/contracts';
import { CONFIG } from '@pp/platform';
import type { FastifyReply } from 'fastify';
import type { CheckoutConfig } from '../checkout.config';
import { CHECKOUT_CSS } from '../pages/checkout.css';

/** Browser scripts live beside this folder (compiled to dist/ with the app); read once at start. */
const browserScript = (name: string): string =>
  readFileSync(join(__dirname, '..', 'browser', name), 'utf8').replace(/\n\/\/# sourceMappingURL=.*$/m, '\n');

/**
 * A script that sizes the embedded frame, with the height rule it shares with the other end (frame-height.js) put
 * inside, both in one function scope: the rule's name never reaches the global scope of the page (for checkout.js,
 * the merchant's), and no second request or script tag is needed.
 */
const withFrameHeight = (script: string): string => `(function () {\n${browserScript('frame-height.js')}\n${script}\n})();\n`;

interface Asset {
  type: string;
  body: string;
}

/** The pages' stylesheet and scripts, and the merchant-facing client script (SDK_URL/v1/checkout.js). */
@Controller()
export class AssetsController {
  private readonly assets: Record<string, Asset>;
  private readonly sdk: Asset;

  constructor(@Inject(CONFIG) config: CheckoutConfig) {
    const js = 'application/javascript; charset=utf-8';
    this.assets = {
      'checkout.css': { type: 'text/css; charset=utf-8', body: CHECKOUT_CSS },
      'checkout-page.js': { type: js, body: withFrameHeight(browserScript('checkout-page.js')) },
      'embed-frame.js': { type: js, body: browserScript('embed-frame.js') },
    };
    // The frame's address is baked in, so the script needs no configuration on the merchant's page.
    const frameBase = new URL(config.CHECKOUT_URL_BASE).href.replace(/\/+$/, '');
    this.sdk = { type: js, body: withFrameHeight(browserScript('checkout.js').replace("'__PP_CHECKOUT_URL_BASE__'", JSON.stringify(frameBase))) };
  }

  @Get('assets/:name')
  asset(@Param('name') name: string, @Res() reply: FastifyReply): FastifyReply {
    const asset = Object.hasOwn(this.assets, name) ? this.assets[name] : undefined;
    if (!asset) throw new DomainError(ErrorCode.NotFound, 'Not found');
    return reply.header('Cache-Control', 'public, max-age=300').type(asset.type).send(asset.body);
  }

  /** Loaded by merchants' pages from another origin: cross-origin script loading needs no CORS, only CORP leniency. */
  @Get('v1/checkout.js')
  clientScript(@Res() reply: FastifyReply): FastifyReply {
    return reply
      .header('Cache-Control', 'public, max-age=300')
      .header('Cross-Origin-Resource-Policy', 'cross-origin')
      .type(this.sdk.type)
      .send(this.sdk.body);
  }
}
