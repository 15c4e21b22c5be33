import type { PostStatus } from '@site/contracts/posts';
import type { Tone } from '../../../components/status-pill';

/** Published green, draft amber, archived grey. */
export function statusTone(status: PostStatus): Tone {
  return status === 'published' ? 'ok' : status === 'draft' ? 'warning' : 'neutral';
}
