import { EventEmitter } from 'node:events';
import { Interrupted, Interruption, signalExitCode, type SignalSource } from './interruption';

/** A process stand-in: signals are emitted by the test, and exit() records its code instead of exiting. */
function fakeProcess(): { source: SignalSource; emitter: EventEmitter; exits: number[] } {
  const emitter = new EventEmitter();
  const exits: number[] = [];
  const source = {
    on: (event: string, listener: (...args: unknown[]) => void) => emitter.on(event, listener),
    exit: (code: number) => {
      exits.push(code);
      return undefined as never;
    },
  } as SignalSource;
  return { source, emitter, exits };
}

describe('a run stopped by a signal', () => {
  it('given SIGINT or SIGTERM, then the exit code is the one a shell gives a process it ended (130, 143)', () => {
    expect(signalExitCode('SIGINT')).toBe(130);
    expect(signalExitCode('SIGTERM')).toBe(143);
  });

  it('given a signal during the raced work, then the race rejects at once with Interrupted, naming it', async () => {
    const { source, emitter, exits } = fakeProcess();
    const interruption = new Interruption(source, () => undefined);
    const race = interruption.race(new Promise(() => undefined));

    emitter.emit('SIGTERM');

    await expect(race).rejects.toThrow('interrupted by SIGTERM');
    await expect(race).rejects.toBeInstanceOf(Interrupted);
    expect(interruption.interrupted?.exitCode).toBe(143);
    expect(exits).toEqual([]);
  });

  it('given no signal, then the race settles as the work does', async () => {
    const interruption = new Interruption(fakeProcess().source, () => undefined);

    await expect(interruption.race(Promise.resolve('measured'))).resolves.toBe('measured');
    await expect(interruption.race(Promise.reject(new Error('gateway answered 500')))).rejects.toThrow('gateway answered 500');
    expect(() => interruption.throwIfInterrupted()).not.toThrow();
  });

  it('given a signal before the race or a step that was not raced, then both stop with Interrupted', async () => {
    const { source, emitter } = fakeProcess();
    const interruption = new Interruption(source, () => undefined);

    emitter.emit('SIGINT');

    expect(() => interruption.throwIfInterrupted()).toThrow('interrupted by SIGINT');
    await expect(interruption.race(Promise.resolve('too late'))).rejects.toThrow('interrupted by SIGINT');
  });

  it('given a second signal during the clean-up, then the process exits at once with its code', () => {
    const { source, emitter, exits } = fakeProcess();
    const logged: string[] = [];
    new Interruption(source, (text) => logged.push(text));

    emitter.emit('SIGINT');
    emitter.emit('SIGTERM');

    expect(exits).toEqual([143]);
    expect(logged).toEqual([
      'SIGINT: stopping the stack and writing the report (SIGINT again exits at once, without cleaning up)',
      'SIGTERM again: exiting at once, without cleaning up',
    ]);
  });

  it('given work left unawaited that fails after the signal, then its rejection is logged, not fatal', () => {
    const { source, emitter } = fakeProcess();
    const logged: string[] = [];
    new Interruption(source, (text) => logged.push(text));

    emitter.emit('SIGINT');
    emitter.emit('unhandledRejection', new Error('connect ECONNREFUSED 127.0.0.1:4000'));

    expect(logged).toContain('after SIGINT, ignored: connect ECONNREFUSED 127.0.0.1:4000');
  });
});
