import { readFile, stat } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import {
  ADMIN_MESSAGES,
  type DockerContainer,
  type DockerSummary,
  type VulnerabilitySummary,
} from '@site/contracts/admin';

/*
 * Facts about the host that exist only on some installs: the Docker socket, a dependency audit report, a git
 * checkout. Each answers real figures or says it is not available; nothing here invents a number.
 */

export const DEFAULT_DOCKER_SOCKET = '/var/run/docker.sock';
/** Written at build time by `pnpm audit --json > audit-report.json` in the site root, when the registry answers. */
export const AUDIT_REPORT_FILE = 'audit-report.json';

/** The host's 1-minute load average and the cores it is spread over (what the CPU check reads). */
export interface CpuLoad {
  load: number;
  cores: number;
}

export function hostCpuLoad(): CpuLoad {
  return { load: os.loadavg()[0] ?? 0, cores: Math.max(1, os.availableParallelism?.() ?? os.cpus().length) };
}

const unavailable = (reason: string = ADMIN_MESSAGES.notAvailable) => ({ available: false as const, reason });

function dockerGet(socketPath: string, requestPath: string, timeoutMs: number): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const req = http.get({ socketPath, path: requestPath, headers: { Host: 'docker' }, timeout: timeoutMs }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        body += chunk;
        if (body.length > 5_000_000) req.destroy(new Error('Docker answer too large'));
      });
      res.on('end', () => {
        if ((res.statusCode ?? 0) !== 200) return reject(new Error(`Docker answered ${res.statusCode}`));
        try {
          resolve(JSON.parse(body));
        } catch (error) {
          reject(error as Error);
        }
      });
    });
    req.on('timeout', () => req.destroy(new Error('Docker did not answer in time')));
    req.on('error', reject);
  });
}

interface DockerApiContainer {
  Id?: string;
  Names?: string[];
  Image?: string;
  State?: string;
  Status?: string;
  Ports?: { IP?: string; PrivatePort?: number; PublicPort?: number; Type?: string }[];
}

function healthOf(status: string | undefined): DockerContainer['health'] {
  if (!status) return 'none';
  if (/\(unhealthy\)/.test(status)) return 'unhealthy';
  if (/\(healthy\)/.test(status)) return 'healthy';
  if (/health: starting/.test(status)) return 'starting';
  return 'none';
}

/** Containers from the Docker Engine API over its unix socket (`GET /containers/json?all=1`), when mounted. */
export async function dockerSummary(options: { socketPath?: string; now: Date; timeoutMs?: number }): Promise<DockerSummary> {
  const socketPath = options.socketPath ?? DEFAULT_DOCKER_SOCKET;
  try {
    if (!(await stat(socketPath)).isSocket()) return unavailable();
  } catch {
    return unavailable();
  }
  let list: unknown;
  try {
    list = await dockerGet(socketPath, '/containers/json?all=1', options.timeoutMs ?? 3000);
  } catch (error) {
    return unavailable(`The Docker socket did not answer: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (!Array.isArray(list)) return unavailable('The Docker socket answered something unexpected');
  const checkedAt = options.now.toISOString();
  const containers: DockerContainer[] = (list as DockerApiContainer[]).map((c) => ({
    id: String(c.Id ?? '').slice(0, 12),
    name: (c.Names?.[0] ?? c.Id ?? 'unnamed').replace(/^\//, ''),
    image: String(c.Image ?? ''),
    status: String(c.State ?? 'unknown'),
    health: healthOf(c.Status),
    ports: (c.Ports ?? []).map((p) =>
      p.PublicPort ? `${p.IP ?? '0.0.0.0'}:${p.PublicPort}->${p.PrivatePort}/${p.Type ?? 'tcp'}` : `${p.PrivatePort}/${p.Type ?? 'tcp'}`,
    ),
    lastCheck: checkedAt,
  }));
  return {
    available: true,
    total: containers.length,
    running: containers.filter((c) => c.status === 'running').length,
    healthy: containers.filter((c) => c.health === 'healthy').length,
    unhealthy: containers.filter((c) => c.health === 'unhealthy').length,
    containers,
    checkedAt,
  };
}

const count = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? Math.floor(v) : 0);

/**
 * Counts of the dependency audit report (`pnpm audit --json` / `npm audit --json`: `metadata.vulnerabilities`)
 * in the site root, when the build wrote one.
 */
export async function vulnerabilitySummary(options: { siteRoot: string; file?: string }): Promise<VulnerabilitySummary> {
  const file = path.join(options.siteRoot, options.file ?? AUDIT_REPORT_FILE);
  let text: string;
  let mtime: Date;
  try {
    [text, mtime] = await Promise.all([readFile(file, 'utf8'), stat(file).then((s) => s.mtime)]);
  } catch {
    return unavailable();
  }
  let report: { metadata?: { vulnerabilities?: Record<string, unknown> }; error?: unknown };
  try {
    report = JSON.parse(text) as typeof report;
  } catch {
    return unavailable('The audit report is not valid JSON');
  }
  const v = report.metadata?.vulnerabilities;
  if (!v || typeof v !== 'object') {
    return unavailable(report.error ? 'The audit at build time could not reach the registry' : 'The audit report has no counts');
  }
  const critical = count(v.critical);
  const high = count(v.high);
  const moderate = count(v.moderate);
  const low = count(v.low);
  return {
    available: true,
    critical,
    high,
    moderate,
    low,
    total: critical + high + moderate + low + count(v.info),
    generatedAt: mtime.toISOString(),
    source: AUDIT_REPORT_FILE,
  };
}

/** The commit checked out in `siteRoot` when it is a git checkout (reads .git directly, runs nothing). */
export async function gitHead(siteRoot: string): Promise<string | undefined> {
  const gitDir = path.join(siteRoot, '.git');
  try {
    const head = (await readFile(path.join(gitDir, 'HEAD'), 'utf8')).trim();
    if (/^[0-9a-f]{40,64}$/.test(head)) return head;
    const ref = /^ref: (refs\/[\w./-]+)$/.exec(head)?.[1];
    if (!ref || ref.includes('..')) return undefined;
    try {
      return (await readFile(path.join(gitDir, ref), 'utf8')).trim();
    } catch {
      const packed = await readFile(path.join(gitDir, 'packed-refs'), 'utf8');
      return packed.split('\n').find((line) => line.endsWith(` ${ref}`))?.split(' ')[0];
    }
  } catch {
    return undefined;
  }
}
