import { startTogether } from './start-together';

class Resource {
  ended = false;
  constructor(readonly name: string) {}
  async close(): Promise<void> {
    this.ended = true;
  }
}

describe('startTogether', () => {
  it('given every start succeeds, then it answers what started, in order, and ends nothing', async () => {
    const [first, second] = await startTogether([Promise.resolve(new Resource('receiver')), Promise.resolve(new Resource('browser'))]);

    expect([first.name, second.name]).toEqual(['receiver', 'browser']);
    expect([first.ended, second.ended]).toEqual([false, false]);
  });

  it('given one start fails, then the ones that started are ended and the failure is thrown', async () => {
    const receiver = new Resource('receiver');
    const stack = { stopped: false, stop: async () => void (stack.stopped = true) };

    await expect(startTogether([Promise.resolve(receiver), Promise.reject(new Error('NATS unreachable')), Promise.resolve(stack)])).rejects.toThrow('NATS unreachable');
    expect(receiver.ended).toBe(true);
    expect(stack.stopped).toBe(true);
  });
});
