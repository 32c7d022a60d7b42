import { IsBase64, IsString, MaxLength } from 'class-validator';

/** Largest raw message the ingest service accepts (bytes, before base64). */
export const MAX_RAW_EMAIL_BYTES = 5 * 1024 * 1024;

/**
 * Payload of `ingest.email.submit.v1`: one raw RFC 822 message, base64-encoded
 * so that any byte survives the JSON bus envelope. The gateway's
 * `POST /v1/internal/ingest-email` sends the request body here unchanged.
 */
export class SubmitEmailCommand {
  @IsString({ message: 'raw_base64 must be a base64 string' })
  @IsBase64({}, { message: 'raw_base64 must be a base64 string' })
  @MaxLength(Math.ceil(MAX_RAW_EMAIL_BYTES / 3) * 4 + 4, { message: 'raw message is larger than 5 MB' })
  raw_base64!: string;
}

export type SubmitEmailStatus = 'accepted' | 'duplicate';

/** 202 body of POST /v1/internal/ingest-email: `id` is the stored e-mail (`em_…`), the original one for a copy. */
export interface SubmitEmailReply {
  id: string;
  status: SubmitEmailStatus;
}
