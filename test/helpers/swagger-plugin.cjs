// The @nestjs/swagger CLI plugin as a ts-jest AST transformer, so tests see the same OpenAPI metadata as `nest build`.
const plugin = require('@nestjs/swagger/plugin');

module.exports.name = 'nestjs-swagger-transformer';
module.exports.version = 1;
module.exports.factory = (cs) => plugin.before({ classValidatorShim: true, introspectComments: true, dtoFileNameSuffix: ['.dto.ts'] }, cs.program);
