import { readFileSync } from 'node:fs';
import type { ServiceName } from '@pp/contracts';
import type { TestStack } from '@pp/testing';

/** Resident memory (MB) of each service process after it has been idle a few seconds. */
export async function measureIdleMemory(stack: TestStack, idleMs = 3000): Promise<Partial<Record<ServiceName, number>>> {
  await new Promise((resolve) => setTimeout(resolve, idleMs));
  const result: Partial<Record<ServiceName, number>> = {};
  for (const proc of stack.processes()) {
    const status = readFileSync(`/proc/${proc.pid}/status`, 'utf8');
    const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
    result[proc.service] = Math.round(kb / 1024);
  }
  return result;
}
