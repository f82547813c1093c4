import { withWorkspaceDependencies } from './test-support/consumer-install';

describe('the adoption test packs what a consumer install needs', () => {
  it('adds every workspace package the requested ones depend on at run time, transitively', () => {
    const folders = withWorkspaceDependencies(['web-host', 'probe-redis']);
    // web-host reads request bodies through transport-kit and runs on worker-host; probes sit on probe-kit.
    expect(folders).toEqual(
      expect.arrayContaining(['web-host', 'probe-redis', 'transport-kit', 'worker-host', 'probe-kit']),
    );
    expect(new Set(folders).size).toBe(folders.length);
    expect(folders).not.toContain('testing');
  });
});
