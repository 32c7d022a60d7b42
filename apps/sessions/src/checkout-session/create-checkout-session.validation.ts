import { CreateCheckoutSessionBody, DomainError, ErrorCode, MAX_METADATA_KEYS } from '@pp/contracts';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * The rules of POST /v1/checkout/sessions (PRODUCT-RULES §4.1) that the service owns,
 * with messages that name the field: the body's own decorators, then URLs
 * (https; http only for localhost in test mode) and the metadata limit.
 */
export function validateCreateBody(raw: unknown, livemode: boolean): CreateCheckoutSessionBody {
  const body = plainToInstance(CreateCheckoutSessionBody, raw ?? {});
  const problems = validateSync(body, { forbidUnknownValues: false }).flatMap((error) => Object.values(error.constraints ?? {}));
  for (const field of ['success_url', 'cancel_url'] as const) {
    if (typeof body[field] === 'string' && !isAcceptedUrl(body[field], livemode)) {
      problems.push(`${field} must be a fully qualified https URL${livemode ? '' : ' (http only for localhost in test mode)'}`);
    }
  }
  if (isPlainObject(body.metadata) && Object.keys(body.metadata).length > MAX_METADATA_KEYS) {
    problems.push(`metadata must have at most ${MAX_METADATA_KEYS} keys`);
  } else if (body.metadata !== undefined && body.metadata !== null && !isPlainObject(body.metadata)) {
    problems.push('metadata must be an object of key-value pairs');
  }
  if (problems.length > 0) throw new DomainError(ErrorCode.ValidationFailed, `Validation failed: ${[...new Set(problems)].join('; ')}`);
  return body;
}

function isAcceptedUrl(value: string, livemode: boolean): boolean {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  if (!url.hostname || url.username || url.password) return false;
  if (url.protocol === 'https:') return url.hostname.includes('.') || LOCAL_HOSTS.has(url.hostname);
  return url.protocol === 'http:' && !livemode && LOCAL_HOSTS.has(url.hostname);
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
