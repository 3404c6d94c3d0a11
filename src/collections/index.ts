/** The public surface of `collections` for other modules (feature -> feature imports go through this file only). */
export { ImageDto, mapImage } from './dto/image.dto.js';
export { HANDLE_MESSAGE, HANDLE_PATTERN } from './dto/collection.dto.js';
export { Collection } from './entities/collection.entity.js';
export { parseCollectionRules } from './collection-rules.js';
export { COLLECTIONS_CACHE_TOPIC, CollectionsService } from './collections.service.js';
export type { CollectionDto } from './dto/collection.dto.js';
export { COLLECTION_COLUMNS, collectionRecordsOf, collectionScopesOf, collectionsOf, upsertCollections } from './collections.repository.js';
export type { CollectionRecord, CollectionScopeRow } from './collections.repository.js';
export type { CollectionPayload } from './collections.events.js';
