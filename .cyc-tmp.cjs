const base = require('/work/wt-arch-direction/.dependency-cruiser.cjs');
module.exports = { ...base, forbidden: [
 { name: 'no-circular', severity: 'error', from: {}, to: { circular: true } },
 { name: 'no-circular-value', severity: 'error', from: {}, to: { circular: true, dependencyTypesNot: ['type-only'] } },
]};
