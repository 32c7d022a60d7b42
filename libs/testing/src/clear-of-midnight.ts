const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Waits past the next UTC midnight when it is less than `marginMs` away, so
 * a test that makes payments and then reads "today" or "this week" (the week
 * starts on Monday, at midnight too) reads them on the day it made them.
 */
export async function clearOfUtcMidnight(marginMs = 15_000, now: () => number = Date.now): Promise<void> {
  const left = DAY_MS - (now() % DAY_MS);
  if (left < marginMs) await new Promise((resolve) => setTimeout(resolve, left + 100));
}
