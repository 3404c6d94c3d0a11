import { describe, expect, it } from '@jest/globals';
import { Injectable, Module, type Type } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { Readable } from 'node:stream';
import { RequestContext } from '../common/context/request-context.js';
import { ExtensionsModule } from '../extensions/index.js';
import { ThemeAsset } from './entities/theme-asset.entity.js';
import { AssetStores, type AssetStore } from './storage/asset-store.js';
import { ThemeAssetsRepository, type ThemeAssetContent } from './theme-assets.repository.js';
import { ThemeAssetsService } from './theme-assets.service.js';

const TENANT = '00000000-0000-0000-0000-000000000001';
const THEME = '00000000-0000-0000-0000-0000000000a1';
const ctx = RequestContext.forTenant(TENANT);

/** Blobs in memory under `<scheme>:<n>`. */
class MemoryStore implements AssetStore {
  readonly transactional = false;
  readonly blobs = new Map<string, Buffer>();
  constructor(readonly scheme: string) {}
  async put(_tenantId: string, source: AsyncIterable<Buffer>): Promise<string> {
    const parts: Buffer[] = [];
    for await (const chunk of source) parts.push(chunk);
    const ref = `${this.scheme}:${this.blobs.size + 1}`;
    this.blobs.set(ref, Buffer.concat(parts));
    return ref;
  }
  get(ref: string): Promise<Readable | null> {
    const bytes = this.blobs.get(ref);
    return Promise.resolve(bytes ? Readable.from([bytes]) : null);
  }
  delete(refs: string[]): Promise<void> {
    for (const ref of refs) this.blobs.delete(ref);
    return Promise.resolve();
  }
}

/** What the built-in module registers: one store for every ref. */
@Injectable()
class BuiltInStores extends AssetStores {
  readonly current = new MemoryStore('builtin');
  forRef(): AssetStore {
    return this.current;
  }
}

/** An extension module's stores (say, an object store), registered the same way. */
@Injectable()
class ObjectStores extends AssetStores {
  readonly current = new MemoryStore('s3');
  forRef(): AssetStore {
    return this.current;
  }
}

/** The asset rows in memory (one theme of the shop, no other). */
class FakeThemeAssetsRepository {
  rows: ThemeAsset[] = [];
  transaction<R>(c: RequestContext, work: (tx: RequestContext) => Promise<R>): Promise<R> {
    return work(c);
  }
  themeOrThrow(): Promise<void> {
    return Promise.resolve();
  }
  lockTheme(): Promise<boolean> {
    return Promise.resolve(true);
  }
  existing(): Promise<undefined> {
    return Promise.resolve(undefined);
  }
  insert(_tx: RequestContext, themeId: string, key: string, c: ThemeAssetContent): Promise<ThemeAsset> {
    const asset = Object.assign(new ThemeAsset(), { id: `a${this.rows.length + 1}`, tenantId: TENANT, themeId, key, ...c });
    this.rows.push(asset);
    return Promise.resolve(asset);
  }
}

@Module({ providers: [{ provide: AssetStores, useClass: BuiltInStores }] })
class BuiltInModule {}

@Module({ providers: [ObjectStores] })
class ObjectStoresModule {}

async function setUp(extensionModules: Type[]) {
  const moduleRef = await Test.createTestingModule({
    imports: [ExtensionsModule, BuiltInModule, ...extensionModules],
    providers: [ThemeAssetsService, { provide: ThemeAssetsRepository, useValue: new FakeThemeAssetsRepository() }],
  }).compile();
  await moduleRef.init();
  return {
    assets: moduleRef.get(ThemeAssetsService),
    builtIn: moduleRef.get(AssetStores),
    objectStores: extensionModules.length ? moduleRef.get(ObjectStores) : null,
  };
}

async function upload(assets: ThemeAssetsService): Promise<ThemeAsset> {
  return assets.putBinary(ctx, THEME, 'assets/logo.png', { body: Readable.from([Buffer.from('png bytes')]), contentType: 'image/png', contentLength: '9' });
}

async function read(stream: Readable): Promise<string> {
  const parts: Buffer[] = [];
  for await (const chunk of stream) parts.push(chunk as Buffer);
  return Buffer.concat(parts).toString();
}

describe('ThemeAssetsService: asset stores as an extension point (repository faked)', () => {
  it('keeps binary assets in the built-in stores when no module registers others', async () => {
    const { assets, builtIn } = await setUp([]);
    const asset = await upload(assets);
    expect(asset.blobRef).toBe('builtin:1');
    expect(await read(await assets.open(asset))).toBe('png bytes');
    expect((builtIn.current as MemoryStore).blobs.size).toBe(1);
  });

  it("an extension module's AssetStores, registered after the built-in one, receives new bytes and serves them", async () => {
    const { assets, builtIn, objectStores } = await setUp([ObjectStoresModule]);
    const asset = await upload(assets);
    expect(asset.blobRef).toBe('s3:1');
    expect(await read(await assets.open(asset))).toBe('png bytes');
    expect((objectStores!.current as MemoryStore).blobs.size).toBe(1);
    expect((builtIn.current as MemoryStore).blobs.size).toBe(0);
  });
});
