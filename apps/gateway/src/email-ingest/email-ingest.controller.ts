import { createHash } from 'node:crypto';
import { Controller, HttpCode, Inject, Post, Req } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiOperation, ApiTags } from '@nestjs/swagger';
import { DomainError, ErrorCode, ingestRawEmailBucketName, type SubmitEmailCommand, type SubmitEmailReply } from '@pp/contracts';
import { type BaseConfig, BusClient, CONFIG, fitsInOneMessage, JsonLogger, NATS_CONNECTION, openBlobBucket } from '@pp/platform';
import type { FastifyRequest } from 'fastify';
import type { NatsConnection } from 'nats';
import { IngestRoute, RFC822 } from '../access/route-access';
import { LongestCallAfterUpload } from '../http/answer-deadline.decorators';
import { ApiJsonResponse } from '../openapi/api-docs.decorators';
import { viewSchema } from '../openapi/view-schema';
import { bucketRefusal } from './bucket-refusal';

/** How long the ingest service may take to store a raw e-mail (a large one comes through the blob bucket). */
const SUBMIT_TIMEOUT_MS = 30_000;

/** A raw message has a header section: at least one "Name: value" line before the first empty line. */
const HEADER_LINE = /^[!-9;-~]+:[^\r\n]*$/m;

/**
 * PRODUCT-RULES §D4 e-mail ingest over HTTP, for mail pipelines that cannot publish
 * to JetStream. The raw bytes go to the ingest service unchanged (inline, or
 * through the blob bucket when larger than one NATS message), which stores
 * them before answering. Duplicates are the ingest service's to recognise
 * (the same bytes, an authenticated Interac reference or DKIM signature), so
 * no Idempotency-Key is needed here.
 */
@ApiTags('internal')
@Controller('v1/internal')
export class EmailIngestController {
  constructor(
    private readonly bus: BusClient,
    @Inject(NATS_CONNECTION) private readonly nc: NatsConnection,
    @Inject(CONFIG) private readonly config: BaseConfig,
    private readonly logger: JsonLogger,
  ) {}

  @Post('ingest-email')
  @HttpCode(202)
  @IngestRoute()
  @LongestCallAfterUpload(SUBMIT_TIMEOUT_MS)
  @ApiOperation({ summary: 'Hand over one raw transfer notification e-mail (RFC 822, at most 5 MB)' })
  @ApiConsumes(RFC822)
  @ApiBody({ required: true, schema: { type: 'string', format: 'binary' } })
  @ApiJsonResponse(
    202,
    'Stored; processing follows',
    viewSchema<SubmitEmailReply>({ id: { type: 'string', example: 'em_…' }, status: { type: 'string', enum: ['accepted', 'duplicate'] } }),
  )
  async ingest(@Req() request: FastifyRequest): Promise<SubmitEmailReply> {
    const raw = request.body;
    if (!Buffer.isBuffer(raw) || raw.length === 0) {
      throw new DomainError(ErrorCode.ValidationFailed, 'Validation failed: the body must be a raw RFC 822 message');
    }
    // Blank lines in front are a pipeline's, which the ingest cuts off (with an mbox postmark): the check starts after them.
    const head = raw.subarray(0, 64 * 1024).toString('latin1').replace(/^(?:\r?\n)+/, '').split(/\r?\n\r?\n/, 1)[0];
    if (!HEADER_LINE.test(head)) {
      throw new DomainError(ErrorCode.ValidationFailed, 'Validation failed: the body must be a raw RFC 822 message (headers, blank line, body)');
    }
    return this.bus.request('ingest.email.submit.v1', await this.command(raw), { timeoutMs: SUBMIT_TIMEOUT_MS });
  }

  private async command(raw: Buffer): Promise<SubmitEmailCommand> {
    if (fitsInOneMessage(this.nc, raw.length)) return { raw_base64: raw.toString('base64') };
    const name = createHash('sha256').update(raw).digest('hex');
    await this.putInBucket(name, raw);
    return { object_name: name };
  }

  /**
   * Puts a large message in the ingest's raw-mail bucket. The bucket is bounded (the migrate step
   * makes it with INGEST_BUCKET_MAX_BYTES); a refused put keeps nothing and is answered 503 with
   * Retry-After, so the mail relay keeps the message and posts it again.
   */
  private async putInBucket(name: string, raw: Buffer): Promise<void> {
    try {
      const bucket = await openBlobBucket(this.nc, ingestRawEmailBucketName(this.config.PP_NAMESPACE));
      await bucket.putBlob({ name }, raw);
    } catch (error) {
      const refusal = bucketRefusal(error);
      this.logger.warn('raw e-mail refused: the raw-mail bucket did not take it', { error: error instanceof Error ? error.message : String(error), bytes: raw.length });
      throw refusal;
    }
  }
}
