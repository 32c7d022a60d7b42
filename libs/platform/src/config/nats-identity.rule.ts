import { existsSync, statSync } from 'node:fs';
import { type ValidationArguments, ValidatorConstraint, type ValidatorConstraintInterface } from 'class-validator';

const hasUser = (url: unknown): boolean => typeof url === 'string' && /^nats:\/\/[^@/\s]+@/.test(url);

/**
 * Each service connects under its own bus identity (PRODUCT-RULES §D4): a user in
 * NATS_URL (`nats://<service>:<password>@host:port`) or a credentials file in
 * NATS_CREDS, not both. Checked on NATS_CREDS so a missing NATS_URL is
 * reported once, by its own rule.
 */
@ValidatorConstraint({ name: 'natsIdentity' })
export class NatsIdentityRule implements ValidatorConstraintInterface {
  validate(creds: unknown, args: ValidationArguments): boolean {
    const url = (args.object as { NATS_URL?: unknown }).NATS_URL;
    if (typeof url !== 'string') return true;
    if (creds === undefined) return hasUser(url);
    return typeof creds === 'string' && !hasUser(url) && isFile(creds);
  }

  defaultMessage(args: ValidationArguments): string {
    const url = (args.object as { NATS_URL?: unknown }).NATS_URL;
    if (args.value === undefined) {
      return 'or a user in NATS_URL (nats://<service>:<password>@host:port): the bus refuses anonymous connections';
    }
    if (hasUser(url)) return 'set either NATS_CREDS or a user in NATS_URL, not both';
    return 'must name a readable NATS credentials file';
  }
}

function isFile(path: string): boolean {
  try {
    return existsSync(path) && statSync(path).isFile();
  } catch {
    return false;
  }
}
