import { randomBytes } from 'node:crypto';
import { KeyRing } from '@pp/platform';
import { resealStep } from './endpoint-secrets';

const ring = (text: string) => KeyRing.parse(text) as KeyRing;
const key = () => randomBytes(32).toString('base64');

describe('resealStep (what the boot pass does with a stored secret)', () => {
  const k1 = key();
  const k2 = key();
  const old = ring(`k1:${k1}`);
  const rotated = ring(`k2:${k2},k1:${k1}`);

  it('given a secret sealed under the first key, then it is kept', () => {
    expect(resealStep(rotated.seal('whsec_a', 'ctx'), rotated)).toBe('keep');
  });

  it('given a secret sealed under an older configured key, then it is re-sealed', () => {
    expect(resealStep(old.seal('whsec_a', 'ctx'), rotated)).toBe('reseal');
  });

  it('given a plaintext secret from before sealing, then it is sealed', () => {
    expect(resealStep('whsec_abc', rotated)).toBe('seal_plaintext');
  });

  it('given a secret sealed under a key the configuration dropped, then the key id is named', () => {
    expect(resealStep(rotated.seal('whsec_a', 'ctx'), old)).toEqual({ unknownKey: 'k2' });
  });
});
