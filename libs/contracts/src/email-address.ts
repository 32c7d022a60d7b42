import { IsEmail, MaxLength } from 'class-validator';
import { PlainText } from './plain-text';

/**
 * A person's e-mail address (a merchant's owner, a team user, a platform
 * admin): the address they sign in with. IsEmail takes Unicode in the local
 * part, bidi overrides and zero-width spaces included, which would show one
 * address as another on the Team page and in the audit trail; the plain-text
 * rule refuses those.
 */
export function IsEmailAddress(field: string): PropertyDecorator {
  const rules = [
    IsEmail({}, { message: `${field} must be an e-mail address` }),
    MaxLength(254, { message: `${field} must be at most 254 characters` }),
    PlainText(field, { identity: true }),
  ];
  return (target, key) => rules.forEach((rule) => rule(target, key));
}
