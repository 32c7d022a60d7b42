import { PARSE_LIMITS } from './parse-limits';

/** Month names and abbreviations as Interac prints them in English and French (accents optional). */
const MONTHS: Record<string, number> = {
  jan: 1, january: 1, janv: 1, janvier: 1,
  feb: 2, february: 2, fev: 2, fevr: 2, fevrier: 2,
  mar: 3, march: 3, mars: 3,
  apr: 4, april: 4, avr: 4, avril: 4,
  may: 5, mai: 5,
  jun: 6, june: 6, juin: 6,
  jul: 7, july: 7, juil: 7, juillet: 7,
  aug: 8, august: 8, aout: 8,
  sep: 9, sept: 9, september: 9, septembre: 9,
  oct: 10, october: 10, octobre: 10,
  nov: 11, november: 11, novembre: 11,
  dec: 12, december: 12, decembre: 12,
};

const MONTH_NAME = '([A-Za-zÀ-ÿ]{3,9})\\.?';
// "Aug 26, 2026", "Sept 13, 2026"
const MONTH_FIRST = new RegExp(`^${MONTH_NAME} (\\d{1,2}),? (\\d{4})\\b`);
// "31 août 2026", "1 sept. 2026", "1er sept. 2026"
const DAY_FIRST = new RegExp(`^(\\d{1,2})(?:er)? ${MONTH_NAME} (\\d{4})\\b`, 'i');
const ISO = /^(\d{4})-(\d{2})-(\d{2})\b/;

const monthNumber = (name: string): number | undefined =>
  MONTHS[name.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase()];

/** The calendar date at the start of `value` as "YYYY-MM-DD", or null when it is not one Interac prints. */
export function readLeadingDate(value: string): string | null {
  const text = value.trim().replace(/\s+/g, ' ');
  let parts: [number, number | undefined, number] | undefined;
  let match: RegExpExecArray | null;
  if ((match = ISO.exec(text))) parts = [Number(match[1]), Number(match[2]), Number(match[3])];
  else if ((match = MONTH_FIRST.exec(text))) parts = [Number(match[3]), monthNumber(match[1]), Number(match[2])];
  else if ((match = DAY_FIRST.exec(text))) parts = [Number(match[3]), monthNumber(match[2]), Number(match[1])];
  if (!parts || parts[1] === undefined) return null;
  const [year, month, day] = parts;
  const date = new Date(Date.UTC(year, month - 1, day));
  if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) return null;
  return date.toISOString().slice(0, 10);
}

// A trailing comment such as "(EDT)". Bounded runs: unanchored on the left, unbounded ones were quadratic on "((((…".
const TRAILING_COMMENT = /\s{0,16}\([^)]{0,64}\)\s{0,16}$/;

/**
 * RFC 5322's date-time: an optional day name, day, month, year, hh:mm[:ss] and a zone, which it requires (a numeric
 * offset, or one of the obsolete names). Anchored, one token after another: linear.
 */
const RFC5322_DATE =
  /^(?:[A-Za-z]{3},\s*)?(\d{1,2})\s+([A-Za-z]{3})\s+(\d{4})\s+(\d{2}):(\d{2})(?::(\d{2}))?\s+([+-]\d{4}|[A-Za-z]{1,3})$/;

/** The obsolete zone names RFC 5322 still reads, and UTC, which some mailers write, as minutes east of UTC. */
const ZONE_NAMES: Record<string, number> = { ut: 0, utc: 0, gmt: 0, z: 0, est: -300, edt: -240, cst: -360, cdt: -300, mst: -420, mdt: -360, pst: -480, pdt: -420 };

const MONTH_OF_HEADER = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

/**
 * The Date header as ISO 8601 UTC, or null. Unlike mail parsers that fall
 * back to "now", an unreadable header stays unknown, and so does one longer
 * than any real Date header, one without its zone (which Date.parse reads in
 * the server's own zone), and a day the calendar does not have (31 Feb,
 * which Date.parse rolls over into March).
 */
export function readDateHeader(value: string | undefined): string | null {
  if (!value || value.length > PARSE_LIMITS.dateHeaderChars) return null;
  const match = RFC5322_DATE.exec(value.replace(TRAILING_COMMENT, '').trim());
  if (!match) return null;
  const [, dayText, monthText, yearText, hourText, minuteText, secondText, zone] = match;
  const month = MONTH_OF_HEADER.indexOf(monthText.toLowerCase());
  const [day, year, hour, minute, second] = [dayText, yearText, hourText, minuteText, secondText ?? '0'].map(Number);
  const offset = /^[+-]/.test(zone) ? (zone[0] === '-' ? -1 : 1) * (Number(zone.slice(1, 3)) * 60 + Number(zone.slice(3))) : ZONE_NAMES[zone.toLowerCase()];
  if (month < 0 || offset === undefined || hour > 23 || minute > 59 || second > 60) return null;
  const local = new Date(Date.UTC(year, month, day, hour, minute, Math.min(second, 59)));
  if (local.getUTCDate() !== day || local.getUTCMonth() !== month) return null;
  return new Date(local.getTime() - offset * 60_000).toISOString();
}
