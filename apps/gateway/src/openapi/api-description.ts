import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import type { OperationObject, ParameterObject, ResponseObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import type { FastifyInstance } from 'fastify';
import { MAX_RAW_EMAIL_BYTES } from '@pp/contracts';
import { RFC822, SECURITY_SCHEMES } from '../access/route-access';
import { MAX_IDEMPOTENCY_KEY_LENGTH, REQUEST_ID_PATTERN } from '@pp/sdk';

export const OPENAPI_PATH = '/v1/openapi.json';
export const DOCS_PATH = 'docs';

const ERROR_REF = { $ref: '#/components/schemas/Error' };
const error = (description: string, headers?: ResponseObject['headers']): ResponseObject => ({
  description,
  content: { 'application/json': { schema: ERROR_REF } },
  ...(headers ? { headers } : {}),
});
const retryAfter = { 'Retry-After': { description: 'Seconds to wait before retrying', schema: { type: 'integer' as const } } };

/**
 * The OpenAPI 3 description of the public API, built from the controllers
 * (routes, parameters, bodies from their validation classes, security from
 * their access decorators) plus what the request pipeline adds to every
 * route: request ids, error shapes, idempotency and rate limits.
 */
export function buildApiDescription(app: NestFastifyApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('Interac e-Transfer checkout API')
    .setDescription(
      'Checkout sessions and payment confirmation for Canadian Interac e-Transfer payments (CAD). ' +
        'Authenticate with `Authorization: Bearer <API_KEY>`; the key chooses live or test mode. ' +
        'Every POST needs an `Idempotency-Key` header. Errors are `{ "error": string }`.',
    )
    .setVersion('1')
    .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'API key: pp_live_…, pp_live_test_…, pp_rk_… (or pp_pub_… on client-side routes)' }, SECURITY_SCHEMES.apiKey)
    .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'The platform ADMIN_TOKEN' }, SECURITY_SCHEMES.adminToken)
    .addBearerAuth({ type: 'http', scheme: 'bearer', description: "The mail pipeline's INGEST_TOKEN" }, SECURITY_SCHEMES.ingestToken)
    .build();
  const document = SwaggerModule.createDocument(app, config);
  document.paths = Object.fromEntries(Object.entries(document.paths).filter(([path]) => path.startsWith('/v1/')));
  document.components = {
    ...document.components,
    schemas: {
      ...document.components?.schemas,
      Error: { type: 'object', required: ['error'], additionalProperties: false, properties: { error: { type: 'string' } } },
    },
  };
  for (const item of Object.values(document.paths)) {
    for (const method of ['get', 'post', 'patch', 'put', 'delete'] as const) {
      const operation = item[method];
      if (operation) addPipelineTraits(operation, method);
    }
  }
  return document;
}

function addPipelineTraits(operation: OperationObject, method: string): void {
  const parameters = (operation.parameters ?? []) as ParameterObject[];
  parameters.push({
    name: 'X-Request-Id',
    in: 'header',
    required: false,
    description: 'Your id for this request, echoed back (else one is generated); name it when contacting support',
    schema: { type: 'string', pattern: REQUEST_ID_PATTERN.source },
  });
  // The mail pipeline's route takes raw e-mails, deduplicated by their content rather than by an Idempotency-Key.
  const rawEmail = operation.security?.some((requirement) => SECURITY_SCHEMES.ingestToken in requirement) ?? false;
  if (method === 'post' && !rawEmail) {
    parameters.push({
      name: 'Idempotency-Key',
      in: 'header',
      required: true,
      description: 'Unique per intended operation (a UUID); a retry with the same key and body within 24 h replays the first answer',
      schema: { type: 'string', minLength: 1, maxLength: MAX_IDEMPOTENCY_KEY_LENGTH },
    });
  }
  operation.parameters = parameters;
  const usesKey = operation.security?.some((requirement) => SECURITY_SCHEMES.apiKey in requirement) ?? false;
  operation.responses = {
    ...operation.responses,
    400: error(
      method === 'get'
        ? "'Invalid query parameters' for a list's query, else the message begins 'Validation failed' and names the field"
        : "Validation failed: the message begins 'Validation failed' and names the field",
    ),
    401: error('Missing, malformed, unknown, revoked or expired credential'),
    ...(usesKey ? { 403: error("'Insufficient scope: <scope> required', or a publishable key on a server-side route") } : {}),
    ...(method === 'post' && !rawEmail ? { 409: error('Conflict, or a request with this Idempotency-Key still in progress (Retry-After)', retryAfter) } : {}),
    ...(rawEmail
      ? { 413: error(`Body over ${MAX_RAW_EMAIL_BYTES / (1024 * 1024)} MB`), 415: error(`Content-Type is not ${RFC822}`) }
      : method === 'post' || method === 'patch'
        ? { 413: error('Body over 1 MB'), 415: error('Content-Type is not application/json') }
        : {}),
    ...(usesKey ? { 429: error('Rate limit exceeded', { ...retryAfter, 'X-RateLimit-Limit': { schema: { type: 'integer' } } }) } : {}),
    500: error('Internal error; the message names the request id'),
    503: error('Service unavailable', retryAfter),
  };
}

/**
 * GET /v1/openapi.json and the Swagger UI at /docs, both served from this
 * process (no CDN). The description is built on the first request for it,
 * not at boot: most gateways are never asked, and it would stay in their
 * idle memory (docs/PERFORMANCE.md).
 */
export function serveApiDescription(app: NestFastifyApplication, fastify: FastifyInstance): void {
  let document: OpenAPIObject | undefined;
  let json: string | undefined;
  const describe = (): OpenAPIObject => (document ??= buildApiDescription(app));
  fastify.get(OPENAPI_PATH, { config: { access: { credential: 'public' } } }, async (_request, reply) =>
    reply.type('application/json; charset=utf-8').send((json ??= JSON.stringify(describe()))),
  );
  SwaggerModule.setup(DOCS_PATH, app, describe, { raw: false, customSiteTitle: 'Checkout API reference' });
}
