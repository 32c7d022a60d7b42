import { IsEmail, Matches, MaxLength, ValidateBy } from 'class-validator';
import { PlainText } from './plain-text';

/** The zero-width joiners, which a name may need (some scripts join letters with them) and an address never does. */
const JOINERS = /^[^\u200c\u200d]*$/;

/**
 * A person's e-mail address (a merchant's owner, a team user, a platform
 * admin): the address they sign in with, one per account. IsEmail takes
 * Unicode in the local part, bidi overrides and zero-width characters
 * included, which would show one address as another on the Team page and in
 * the audit trail; the plain-text rule refuses those, and the joiners too.
 * An accented letter may be typed composed (é) or as a letter and a
 * combining accent (e + ◌́): the same on screen, two accounts to the unique
 * index on lower(email); only the composed form (NFC) is taken.
 */
export function IsEmailAddress(field: string): PropertyDecorator {
  const rules = [
    IsEmail({}, { message: `${field} must be an e-mail address` }),
    MaxLength(254, { message: `${field} must be at most 254 characters` }),
    PlainText(field, { identity: true }),
    Matches(JOINERS, { message: `${field} must not contain control or invisible formatting characters` }),
    ValidateBy({
      name: 'isComposed',
      validator: {
        validate: (value: unknown) => typeof value !== 'string' || value === value.normalize('NFC'),
        defaultMessage: () => `${field} must write accented letters composed (Unicode NFC), as a keyboard types them`,
      },
    }),
  ];
  return (target, key) => rules.forEach((rule) => rule(target, key));
}
