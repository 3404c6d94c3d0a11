import { SetMetadata } from '@nestjs/common';

export const ENVELOPE_KEY = 'envelope:member';

/** Names the one member a successful JSON response is wrapped in: `@Envelope('collections')`. */
export const Envelope = (member: string) => SetMetadata(ENVELOPE_KEY, member);
