import { StalledReaderError } from './write-when-ready';

/** The stream's API key was revoked or expired since it opened (or cannot be checked): the stream ends. */
export class KeyNoLongerValid extends Error {}

/** The ways a stream ends as it should: not failures of the round that meets them. */
export type StreamEnding = KeyNoLongerValid | StalledReaderError;

/**
 * Runs a stream round; answers the ending it met, if it met one, rather
 * than throwing it, so a span around the round records no error for it.
 * Any other failure is thrown.
 */
export async function expectedEnding(round: () => Promise<void>): Promise<StreamEnding | undefined> {
  try {
    await round();
    return undefined;
  } catch (error) {
    if (error instanceof KeyNoLongerValid || error instanceof StalledReaderError) return error;
    throw error;
  }
}
