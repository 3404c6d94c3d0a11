import { Injectable } from '@nestjs/common';
import { isAbsolute, resolve } from 'node:path';
import { DataSource } from 'typeorm';
import { AppConfig } from '../../config/app-config.js';
import { AssetStore, AssetStores } from './asset-store.js';
import { FilesystemAssetStore } from './filesystem-asset-store.js';
import { PostgresAssetStore } from './postgres-asset-store.js';

/** THEME_ASSET_STORE picks where new bytes go; existing refs are read and deleted by the store that wrote them. */
@Injectable()
export class ConfiguredAssetStores extends AssetStores {
  readonly postgres: PostgresAssetStore;
  readonly filesystem: FilesystemAssetStore;
  readonly current: AssetStore;

  constructor(config: AppConfig, dataSource: DataSource) {
    super();
    const dir = config.THEME_ASSET_DIR || `${config.DATA_DIR}/theme-assets`;
    this.postgres = new PostgresAssetStore(dataSource);
    this.filesystem = new FilesystemAssetStore(isAbsolute(dir) ? dir : resolve(dir));
    this.current = config.THEME_ASSET_STORE === 'filesystem' ? this.filesystem : this.postgres;
  }

  forRef(ref: string): AssetStore {
    if (ref.startsWith('pg:')) return this.postgres;
    if (ref.startsWith('fs:')) return this.filesystem;
    throw new Error(`unknown asset store of ref ${ref}`);
  }
}
