import { IsString, Matches, MaxLength, ValidateIf } from 'class-validator';

/** Largest raw message the ingest service accepts (bytes, before base64). */
export const MAX_RAW_EMAIL_BYTES = 5 * 1024 * 1024;

/**
 * Payload of `ingest.email.submit.v1`: one raw RFC 822 message, either inline
 * (base64, so that any byte survives the JSON bus envelope) or, when it is
 * larger than one NATS message can carry, as the name of an object the sender
 * put in the ingest blob bucket (ingestRawEmailBucketName). Exactly one of the two.
 * The gateway's `POST /v1/internal/ingest-email` sends the request body here unchanged.
 */
export class SubmitEmailCommand {
  @ValidateIf((command: SubmitEmailCommand) => command.object_name === undefined)
  // Its alphabet is checked once, where it is decoded (the ingest's strict decodeBase64), not here as well:
  // a second pass over every notice's bytes was about 2 % of the ingest's main thread (docs/PERFORMANCE.md).
  @IsString({ message: 'raw_base64 must be a base64 string' })
  @MaxLength(Math.ceil(MAX_RAW_EMAIL_BYTES / 3) * 4 + 4, { message: 'raw message is larger than 5 MB' })
  raw_base64?: string;

  @ValidateIf((command: SubmitEmailCommand) => command.raw_base64 === undefined || command.object_name !== undefined)
  @IsString({ message: 'object_name must name an object in the ingest blob bucket' })
  @Matches(/^[a-f0-9]{64}$/, { message: 'object_name must be the sha256 of the message, in hex' })
  object_name?: string;
}

export type SubmitEmailStatus = 'accepted' | 'duplicate';

/** 202 body of POST /v1/internal/ingest-email: `id` is the stored e-mail (`em_…`), the original one for a copy. */
export interface SubmitEmailReply {
  id: string;
  status: SubmitEmailStatus;
}
