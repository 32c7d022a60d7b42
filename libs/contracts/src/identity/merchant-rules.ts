import { ArrayMaxSize, IsArray, IsString, Length, Matches, MaxLength } from 'class-validator';
import { PlainText } from '../plain-text';

/*
 * What a merchant's settings may hold, wherever they are set (the gateway's
 * admin API, the dashboard's platform admins): one set of rules.
 */

/**
 * A deposit address: plain ASCII, a dot-atom local part (no quoted parts, no
 * Unicode) and a domain of dotted labels. Live notices are routed to a
 * merchant by comparing this address, lower-cased, with the recipients of a
 * bank's e-mail: JavaScript and Postgres lower-case ASCII alike but not the
 * rest (Postgres's C locale folds ASCII only), so two Unicode spellings of
 * one address could be given to two merchants and a notice routed to the
 * wrong one; and the ingest reads no quoted local part.
 */
const DEPOSIT_ADDRESS = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)+$/;

export function IsDepositAddress(field: string): PropertyDecorator {
  const rules = [
    IsString({ message: `${field} must be an e-mail address` }),
    MaxLength(254, { message: `${field} must be at most 254 characters` }),
    Matches(DEPOSIT_ADDRESS, { message: `${field} must be a plain ASCII e-mail address, such as payments@shop.example` }),
  ];
  return (target, key) => rules.forEach((rule) => rule(target, key));
}

export const MAX_FRAME_ANCESTORS = 20;
const LABEL = '[a-z0-9](?:[a-z0-9-]*[a-z0-9])?';
/**
 * An origin allowed to frame the embedded checkout: https, a host of two
 * labels or more (a wildcard `*.` only in front of two labels or more, so
 * never `https://*.com`), an optional port; http only for localhost. Nothing
 * that could break out of the CSP header.
 */
const FRAME_ANCESTOR = new RegExp(`^(?:https://(?:\\*\\.)?${LABEL}(?:\\.${LABEL})+|https?://localhost)(?::\\d{1,5})?$`);

export function IsFrameAncestors(): PropertyDecorator {
  const rules = [
    IsArray({ message: 'frame_ancestors must be an array of origins' }),
    ArrayMaxSize(MAX_FRAME_ANCESTORS, { message: `frame_ancestors must list at most ${MAX_FRAME_ANCESTORS} origins` }),
    MaxLength(300, { each: true, message: 'frame_ancestors must each be at most 300 characters' }),
    Matches(FRAME_ANCESTOR, { each: true, message: 'frame_ancestors must each be an https origin such as https://shop.example.com or https://*.example.com (http only for localhost)' }),
  ];
  return (target, key) => rules.forEach((rule) => rule(target, key));
}

/** A merchant's name as payers see it on the checkout page: one line of plain text (no bidi override to show it reversed, say), not blank. */
export function IsMerchantName(): PropertyDecorator {
  const rules = [
    IsString({ message: 'name must be a string' }),
    Length(1, 200, { message: 'name must be 1 to 200 characters' }),
    // The joiners the plain-text rule keeps show nothing alone.
    Matches(/[^\s\u200c\u200d]/, { message: 'name must not be blank' }),
    PlainText('name', { identity: true }),
  ];
  return (target, key) => rules.forEach((rule) => rule(target, key));
}
