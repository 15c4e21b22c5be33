import type { PostStatus } from '@site/contracts/posts';
import type { Tone } from '../../../components/status-pill';

/** Published green, draft amber, scheduled blue, archived grey. */
export function statusTone(status: PostStatus): Tone {
  return status === 'published' ? 'ok' : status === 'draft' ? 'warning' : status === 'scheduled' ? 'info' : 'neutral';
}

/** 'Scheduled' for the status filter's options. */
export const statusLabel = (status: PostStatus): string => status[0]!.toUpperCase() + status.slice(1);
