import { storedUnsettled, type Unsettled } from './idempotency-key.policy';

/** Where the unsettled submissions are kept between one submission and its retry. */
export interface UnsettledStore {
  read(): Unsettled[];
  write(unsettled: Unsettled[]): void;
}

/** The name of the entry in the tab's sessionStorage. */
export const UNSETTLED_STORAGE_NAME = 'dashboard.unsettled-submissions';

/** Kept for the page's life only: shared by every page of the app in the tab, lost on reload. */
export function memoryStore(): UnsettledStore {
  let kept: Unsettled[] = [];
  return {
    read: () => kept,
    write: (unsettled) => {
      kept = unsettled;
    },
  };
}

/**
 * Kept in the tab's sessionStorage, so a reload, or another page of the tab, still retries under the first key; the
 * tab's alone (another tab is another user action), gone when it closes. Not cleared at sign-out: keys are scoped to
 * the user on the server, so another user's retry is a new action there, and the same user signing in again after
 * their session ended mid-action still retries it. Where storage cannot be used (disabled, full), the page's memory.
 */
export function tabStore(storage: Storage | undefined = sessionStorageOrNone()): UnsettledStore {
  const memory = memoryStore();
  let usable = storage !== undefined;
  return {
    read: () => {
      if (!usable) return memory.read();
      try {
        return storedUnsettled(storage!.getItem(UNSETTLED_STORAGE_NAME));
      } catch {
        usable = false;
        return memory.read();
      }
    },
    write: (unsettled) => {
      memory.write(unsettled);
      if (!usable) return;
      try {
        if (unsettled.length === 0) storage!.removeItem(UNSETTLED_STORAGE_NAME);
        else storage!.setItem(UNSETTLED_STORAGE_NAME, JSON.stringify(unsettled));
      } catch {
        // Full or refused: from now on the page's memory, which holds this write, is the one read.
        usable = false;
      }
    },
  };
}

/** The tab's sessionStorage; reading it throws where the browser refuses storage to the page. */
function sessionStorageOrNone(): Storage | undefined {
  try {
    return globalThis.sessionStorage;
  } catch {
    return undefined;
  }
}
