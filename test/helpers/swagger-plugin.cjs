// The @nestjs/swagger CLI plugin as a ts-jest AST transformer, so tests see the same OpenAPI metadata as `nest build`.
// Loaded on the first file ts-jest compiles, not when a Jest worker starts: a run whose transforms all come from Jest's
// cache never loads @nestjs/swagger (and what it imports) outside the tests, a few seconds of CPU per worker saved.
const options = { classValidatorShim: true, introspectComments: true, dtoFileNameSuffix: ['.dto.ts'] };

module.exports.name = 'nestjs-swagger-transformer';
module.exports.version = 1;
module.exports.factory = (cs) => require('@nestjs/swagger/plugin').before(options, cs.program);
