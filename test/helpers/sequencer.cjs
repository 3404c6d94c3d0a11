// The order Jest starts the test files in. Its default runs the files it has timings for (its cache, /tmp/jest_*) by
// duration, longest first, and the others first by size: on a fresh machine (CI) everything is ordered by size, and the
// files that are long for their size (they wait on child processes, builds, timers, or send thousands of requests)
// start late and leave one worker running alone at the end of the run. The files below start first, in this order,
// unless Jest has timings for every file (then its own order is better informed); the others follow in Jest's order.
const { relative } = require('node:path');
const Sequencer = require('@jest/test-sequencer').default;

/** Slowest first (wall time on two workers; see README "Development and tests"). Paths from the repository root. */
const LONG_FIRST = [
  'test/e2e/process.ops.e2e-spec.ts', // builds the server with `nest build`, starts it as a process three times
  'test/e2e/hostile-input.e2e-spec.ts', // odd values for every member of every route
  'test/e2e/collections-generated.storefront.e2e-spec.ts', // hundreds of generated filter sets, each walked to the end
  'test/e2e/conformance.storefront.e2e-spec.ts',
  'test/e2e/cli.e2e-spec.ts', // runs the `shop` command as processes (after process.ops has built dist/: not beside it)
  'test/e2e/customers.storefront.e2e-spec.ts', // scrypt for every sign-in, a rate limit waited out
  'test/e2e/conformance.admin.e2e-spec.ts',
  'test/e2e/checkout.concurrency.e2e-spec.ts',
  // `npm test` (E2E_GROUPS=1): the browser files in two groups, each on one Chromium (test/helpers/e2e-groups.cjs)
  'test/e2e-groups/browser-1.e2e-group.ts',
  'test/e2e-groups/browser-2.e2e-group.ts',
  'test/e2e/storefront-demo.browser.e2e-spec.ts', // headless Chromium
  'test/e2e/storefront-search.browser.e2e-spec.ts', // headless Chromium, the 400-product demo catalogue
  'test/e2e/search-synonyms.admin.e2e-spec.ts', // starts a second instance
  'test/e2e/storefront-catalogue.browser.e2e-spec.ts', // headless Chromium, a 2,000-product demo shop
  'test/e2e/storefront-account.browser.e2e-spec.ts', // headless Chromium: wishlist, password reset, address book, prefilled checkout
  'test/e2e/storefront-journey.browser.e2e-spec.ts', // headless Chromium: home page, JSON-LD, the phone journey (400-product demo shop)
  'test/e2e/slow-readers.ops.e2e-spec.ts', // stalled clients and pool timeouts
  'test/e2e/empty-bodies.e2e-spec.ts',
  'test/e2e/tracing-redaction.ops.e2e-spec.ts',
  'test/e2e/customers.customer.e2e-spec.ts',
  'test/e2e/orders.payments.e2e-spec.ts',
  'test/e2e/openapi.e2e-spec.ts', // redocly and openapi-typescript + tsc on the example client
  'test/e2e/catalogue-promotions.storefront.e2e-spec.ts', // waits for promotion starts and ends (about 20 s of timers)
];

class LongFirstSequencer extends Sequencer {
  sort(tests) {
    const sorted = super.sort(tests);
    if (sorted.every((test) => this.time(test) !== undefined)) return sorted;
    const rank = (test) => {
      const i = LONG_FIRST.indexOf(relative(test.context.config.rootDir, test.path).split('\\').join('/'));
      return i === -1 ? LONG_FIRST.length : i;
    };
    // a stable sort: the files not listed keep Jest's order
    return sorted
      .map((test, i) => ({ test, i, r: rank(test) }))
      .sort((a, b) => a.r - b.r || a.i - b.i)
      .map((x) => x.test);
  }
}

module.exports = LongFirstSequencer;
module.exports.LONG_FIRST = LONG_FIRST;
