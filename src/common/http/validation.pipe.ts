import { ArgumentMetadata, Injectable, ValidationError, ValidationPipe } from '@nestjs/common';
import { getMetadataStorage } from 'class-validator';
import { AppError } from './app-error.js';

type TargetMetadatas = (target: unknown, schema: unknown, always: unknown, strictGroups: unknown, groups?: string[]) => unknown[];
const CACHED = Symbol('target metadatas cached');

/**
 * class-validator looks up a class's rules on every validation by scanning every validated class of the app for its
 * parents (`instanceof` over some hundreds of classes, for each object and nested object of a body): about 0.3 ms of
 * CPU per order of the checkout flow (issue 34). The rules only change when a class is decorated, so each lookup is
 * kept until the next rule is added (a class defined later, e.g. an extension's DTO, drops them all).
 */
export function cacheValidationLookups(): void {
  const storage = getMetadataStorage() as unknown as Record<symbol, boolean> & {
    getTargetValidationMetadatas: TargetMetadatas;
    addValidationMetadata: (m: unknown) => void;
  };
  if (storage[CACHED]) return;
  storage[CACHED] = true;
  const lookup = storage.getTargetValidationMetadatas.bind(storage);
  const add = storage.addValidationMetadata.bind(storage);
  let kept = new Map<unknown, Map<string, unknown[]>>();
  storage.addValidationMetadata = (m) => {
    kept = new Map();
    add(m);
  };
  storage.getTargetValidationMetadatas = (target, schema, always, strictGroups, groups) => {
    const key = `${String(schema)}|${String(always)}|${String(strictGroups)}|${groups?.join('\u0000') ?? ''}`;
    let byTarget = kept.get(target);
    if (!byTarget) kept.set(target, (byTarget = new Map<string, unknown[]>()));
    let found = byTarget.get(key);
    if (!found) byTarget.set(key, (found = lookup(target, schema, always, strictGroups, groups)));
    return found;
  };
}

/** class-validator for every body and query; failures are 422 naming the member (`items[2].quantity ...`). */
@Injectable()
export class ApiValidationPipe extends ValidationPipe {
  constructor() {
    cacheValidationLookups();
    super({
      whitelist: true,
      transform: true,
      forbidUnknownValues: false,
      validateCustomDecorators: false,
      transformOptions: { enableImplicitConversion: false },
      exceptionFactory: (errors: ValidationError[]) => AppError.unprocessable(describe(errors).join('; ')),
    });
  }

  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    // A parameter typed by a type-only import (e.g. `CollectionQuery`, parsed by its own pipe) has `Function` as its
    // metatype in the `nest build` output (ts-jest emits `Object`): there is no DTO to check, and validating against
    // `Function` would strip every member before the parameter's own pipe sees them (issue 29: every filter of the
    // collection lists ignored by the built server while the tests passed).
    if (metadata.metatype === Function) return value;
    if (metadata.type === 'body' && metadata.metatype && metadata.metatype !== Object && !isPlainObject(value)) {
      throw AppError.unprocessable(value === undefined ? 'a JSON request body is required' : 'the request body must be a JSON object');
    }
    return super.transform(value, metadata);
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function describe(errors: ValidationError[], parent = ''): string[] {
  const out: string[] = [];
  for (const e of errors) {
    const path = parent ? (/^\d+$/.test(e.property) ? `${parent}[${e.property}]` : `${parent}.${e.property}`) : e.property;
    if (e.constraints) {
      for (const msg of Object.values(e.constraints)) out.push(msg.startsWith(e.property) ? `${path}${msg.slice(e.property.length)}` : `${path}: ${msg}`);
    }
    if (e.children?.length) out.push(...describe(e.children, path));
  }
  return out;
}
