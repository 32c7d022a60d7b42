import { SERVICE_NODE_FLAGS, serviceNodeFlags } from './node-flags';

describe('serviceNodeFlags', () => {
  it('given Node 22 or later, whose start-up collection gives back the young generation: 16 MB semi-spaces', () => {
    expect(serviceNodeFlags(22)).toEqual(['--max-semi-space-size=16', '--expose-gc']);
    expect(serviceNodeFlags(24)).toEqual(['--max-semi-space-size=16', '--expose-gc']);
  });

  it('given Node 20, whose V8 ignores the "last resort" collection: 4 MB semi-spaces, to stay under 120 MB idle', () => {
    expect(serviceNodeFlags(20)).toEqual(['--max-semi-space-size=4', '--expose-gc']);
  });

  it('gives the services the flags of the Node that starts them (with its own executable)', () => {
    expect(SERVICE_NODE_FLAGS).toEqual(serviceNodeFlags(Number(process.versions.node.split('.')[0])));
  });
});
