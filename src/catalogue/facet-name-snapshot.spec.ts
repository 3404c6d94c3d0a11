import { describe, expect, it } from '@jest/globals';
import { nextSnapshotVersion } from './facet-name-snapshot.service.js';

describe('nextSnapshotVersion', () => {
  it('is strictly increasing even within one millisecond (a version keys product and facet JSON: two snapshots never share one)', () => {
    const versions = Array.from({ length: 1000 }, () => nextSnapshotVersion());
    for (let i = 1; i < versions.length; i++) expect(versions[i]).toBeGreaterThan(versions[i - 1]);
    // still a time: never behind the clock
    expect(versions[0]).toBeGreaterThanOrEqual(Date.now() - 1000);
  });
});
