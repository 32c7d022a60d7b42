/**
 * How much of a message the parser reads (docs/INGEST-FORMATS.md, "Limits").
 * A genuine Interac notice is a few KB of text, or tens of KB of HTML; each
 * limit leaves ten times that or more. Beyond them is mail no notice can be:
 * it is read from its start and can never confirm a payment
 * (`message_too_long`). The limits bound every step's work whatever the
 * 5 MB intake limit lets in; the worker's deadline (INGEST_PARSE_TIMEOUT_MS)
 * covers what is left, chiefly MIME decoding.
 */
export const PARSE_LIMITS = {
  /** Raw bytes handed to the MIME decoder. */
  mimeBytes: 1024 * 1024,
  /** Characters of an HTML part handed to the flattener. */
  htmlChars: 512 * 1024,
  /** Characters of text (plain, or flattened HTML) handed to the field extractor and memo search. */
  textChars: 32 * 1024,
  /** Characters of the subject handed to the classifier. */
  subjectChars: 1000,
  /** Characters of a Date header worth reading (a real one has about 40). */
  dateHeaderChars: 256,
} as const;
