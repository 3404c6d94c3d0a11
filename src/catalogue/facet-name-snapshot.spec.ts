import { describe, expect, it } from '@jest/globals';
import { nextSnapshotVersion } from './facet-name-snapshot.service.js';

describe('nextSnapshotVersion', () => {
  it('is strictly increasing even within one millisecond (a version keys product and facet JSON: two snapshots never share one)', () => {
    const before = Date.now();
    const versions = Array.from({ length: 1000 }, () => nextSnapshotVersion());
    for (let i = 1; i < versions.length; i++) expect(versions[i]).toBeGreaterThan(versions[i - 1]);
    // still a time: never behind the clock (read before, not after: a loaded machine may take over a second here)
    expect(versions[0]).toBeGreaterThanOrEqual(before);
  });
});
