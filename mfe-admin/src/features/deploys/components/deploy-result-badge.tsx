import type { DeployLogEntry } from '@site/contracts/deploys';
import { StatusPill, type Tone } from '../../../components/status-pill';

const RESULT: Record<DeployLogEntry['result'], { tone: Tone; label: string }> = {
  ok: { tone: 'ok', label: 'OK' },
  refused: { tone: 'warning', label: 'Refused' },
  failed: { tone: 'danger', label: 'Failed' },
};

/** A deploy's result in words, its colour repeating them. */
export function DeployResultBadge({ result }: { result: DeployLogEntry['result'] }) {
  return <StatusPill tone={RESULT[result].tone}>{RESULT[result].label}</StatusPill>;
}

export const ACTION_LABEL: Record<DeployLogEntry['action'], string> = {
  deploy: 'Deploy',
  rollback: 'Rollback',
  stage: 'Staged upload',
  promote: 'Promotion',
  canary: 'Canary',
  canary_rollback: 'Canary rollback',
};
