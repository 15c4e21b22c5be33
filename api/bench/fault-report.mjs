// The fault suite's figures and assertions (faults.mjs gathers, this prints): one row per fault, the contacts and
// mails counted against what was acknowledged, the outbox drain, and the issue's assertions, each PASS or FAIL.
import { quantile } from './bench-kit.mjs';

const windowOf = (phase) => (phase === 'start' ? 'baseline' : phase.replace(/^after /, ''));

/** Per fault window: contacts sent, acknowledged, lost (acknowledged, not stored), doubled (stored twice or more). */
export function contactsFigures(contacts, stored, names) {
  const by = new Map([...names, 'other'].map((n) => [n, { sent: 0, acked: 0, lost: 0, doubled: 0, storedUnacked: 0 }]));
  for (const c of contacts) {
    const f = by.get(windowOf(c.phase)) ?? by.get('other');
    const count = stored?.get(c.marker) ?? 0;
    f.sent += 1;
    if (c.acked) f.acked += 1;
    if (stored && c.acked && count === 0) f.lost += 1;
    if (count > 1) f.doubled += 1;
    if (!c.acked && count > 0) f.storedUnacked += 1;
  }
  if (!stored) for (const f of by.values()) f.lost = f.doubled = f.storedUnacked = '?';
  return by;
}

/** Contact mails by marker: how many arrived, doubled (a contact mailed twice), Message-IDs seen twice, missing. */
export function mailFigures(received, owed, markerOf) {
  const perMarker = new Map();
  const idCount = new Map();
  let contactMails = 0;
  for (const m of received) {
    const marker = markerOf(m.raw);
    if (!marker) continue;
    contactMails += 1;
    const id = /^Message-ID:(.*)$/im.exec(m.raw)?.[1]?.trim() || '(none)';
    idCount.set(id, (idCount.get(id) ?? 0) + 1);
    const e = perMarker.get(marker) ?? { count: 0, ids: new Set() };
    e.count += 1;
    e.ids.add(id);
    perMarker.set(marker, e);
  }
  const doubled = [...perMarker.values()].filter((e) => e.count > 1);
  return {
    contactMails,
    distinctContacts: perMarker.size,
    doubled: doubled.length,
    doubledSameId: doubled.filter((e) => e.ids.size === 1).length,
    doubledNewId: doubled.filter((e) => e.ids.size > 1).length,
    idsSeenTwice: [...idCount.values()].filter((n) => n > 1).length,
    missing: owed.filter((m) => !perMarker.has(m)).length,
    owed: owed.length,
    examples: doubled.slice(0, 3).map((e) => [...e.ids].join(' / ')),
  };
}

const fmtMs = (ms) => (ms === null || ms === undefined || Number.isNaN(ms) ? '-' : ms >= 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms)} ms`);
const fmtS = (ms) => (ms === null || ms === undefined ? 'not back' : `${(ms / 1000).toFixed(2)} s`);

function windowStats(records, name) {
  const rs = records.filter((x) => windowOf(x.phase) === name && x.kind !== 'ready');
  const lat = rs.map((x) => x.ms).sort((a, b) => a - b);
  const is = (pred) => rs.filter((x) => pred(x.status)).length;
  const other5xx = rs.filter((x) => typeof x.status === 'number' && x.status >= 500 && x.status !== 503);
  const neterr = rs.filter((x) => x.status === 'neterr');
  return {
    rows: rs,
    requests: rs.length,
    ok: is((s) => typeof s === 'number' && s < 400),
    s503: is((s) => s === 503),
    other5xx,
    s4xx: is((s) => typeof s === 'number' && s >= 400 && s < 500),
    neterr,
    timeouts: is((s) => s === 'timeout'),
    p50: quantile(lat, 0.5),
    p99: quantile(lat, 0.99),
    max: lat.at(-1),
  };
}

const tallyBy = (rows, key) => {
  const m = new Map();
  for (const r of rows) m.set(key(r), (m.get(key(r)) ?? 0) + 1);
  return [...m].sort((a, b) => b[1] - a[1]).map(([k, v]) => `${k} x${v}`).join(', ');
};

export function printReport({ results, records, contactsByPhase, mails, missingMails, drain, unexpectedExits, instances, nodeVersion, quick, settings, pgLog }) {
  const out = (s = '') => console.log(s);
  const failures = [];
  out('');
  out(`## Fault suite${quick ? ' (--quick)' : ''}: Node ${nodeVersion}, 2 instances, ${settings.connections} read connections at ${settings.rate} req/s in all, a contact every 200 ms`);
  out(`outages: PostgreSQL ${settings.pgDown} s, lock ${settings.lock} s, Redis ${settings.redisDown} s, SMTP ${settings.smtpDown} s with ${settings.mails} contacts queued${settings.pagesBuilt ? '' : '; the shell is not built: the pages answer without it'}`);
  out('');
  out('| fault | requests | 2xx/3xx | 503 | other 5xx | 4xx | network errors | timeouts | p50 | p99 | max | time to recover | contacts acked / lost / doubled | processes alive |');
  out('|---|---|---|---|---|---|---|---|---|---|---|---|---|---|');
  for (const r of results) {
    const w = windowStats(records, r.name);
    const c = contactsByPhase.get(r.name);
    const died = unexpectedExits.filter((e) => windowOf(e.phase) === r.name);
    r.stats = w;
    out(
      `| ${r.name} | ${w.requests} | ${w.ok} | ${w.s503} | ${w.other5xx.length} | ${w.s4xx} | ${w.neterr.length} | ${w.timeouts} | ${fmtMs(w.p50)} | ${fmtMs(w.p99)} | ${fmtMs(w.max)} | ${r.name === 'baseline' ? '-' : fmtS(r.recoverMs)} | ${c ? `${c.acked}/${c.sent} / ${c.lost} / ${c.doubled}` : '-'} | ${died.length ? `no (${died.map((e) => `${e.inst} ${e.code ?? e.signal}`).join(', ')})` : 'yes'} |`,
    );
  }
  out('');
  for (const r of results) {
    const w = r.stats;
    if (r.name === 'baseline' && !w.s503 && !w.other5xx.length && !w.neterr.length && !w.timeouts) continue;
    out(`- ${r.name}: ${r.notes.join('; ')}`);
    if (w.s503) out(`  503: ${tallyBy(w.rows.filter((x) => x.status === 503), (x) => `${x.inst} ${x.path}`)}`);
    if (r.contactBackMs !== undefined) out(`  first contact acknowledged after the service returned: ${fmtS(r.contactBackMs)}`);
    if (w.other5xx.length) out(`  other 5xx: ${tallyBy(w.other5xx, (x) => `${x.inst} ${x.path} ${x.status}`)}`);
    if (w.neterr.length) out(`  network errors: ${tallyBy(w.neterr, (x) => `${x.inst} ${x.code}`)}`);
    const c = contactsByPhase.get(r.name);
    if (c?.storedUnacked) out(`  contacts stored though not acknowledged (the visitor saw an error; not a loss): ${c.storedUnacked}`);
  }
  const other = contactsByPhase.get('other');
  if (other?.sent) out(`- contacts sent during the warm-up and the wind-down: ${other.acked}/${other.sent} acked, lost ${other.lost}, doubled ${other.doubled}`);
  out('');
  out(
    `mails: ${mails.contactMails} contact mails for ${mails.distinctContacts} contacts (${mails.owed} stored); doubled ${mails.doubled} (same Message-ID ${mails.doubledSameId}, new Message-ID ${mails.doubledNewId}); Message-IDs seen twice ${mails.idsSeenTwice}; never arrived ${mails.missing}`,
  );
  if (mails.examples.length) out(`  doubled, e.g.: ${mails.examples.join('; ')}`);
  if (missingMails?.length) out(`  never arrived, by the stored row's mail state: ${tallyBy(missingMails, (m) => m)}`);
  if (drain)
    out(
      `outbox drain: ${drain.mails} mails owed after a ${drain.outageS.toFixed(0)} s SMTP outage (${drain.queuedBulk} queued on purpose): ${drain.drainMs === null ? `${drain.missing} still missing` : `all arrived ${(drain.drainMs / 1000).toFixed(1)} s after SMTP returned`}; the ${drain.queuedBulk} queued ones ${drain.bulkDrainMs === null ? 'not all arrived' : `in ${(drain.bulkDrainMs / 1000).toFixed(1)} s`}`,
    );
  out(`instance starts (spawn to listening): ${instances.map((i) => `${i.name} ${i.starts.map((ms) => `${(ms / 1000).toFixed(1)} s`).join(', ')}`).join('; ')}`);
  out(`Node version of the instances: ${nodeVersion}`);

  // ---- the issue's assertions ----
  const check = (ok, what, why) => {
    out(`${ok ? 'PASS' : 'FAIL'}  ${what}${ok || !why ? '' : `: ${why}`}`);
    if (!ok) failures.push(what);
  };
  out('');
  out('### assertions');
  check(unexpectedExits.length === 0, 'both processes alive', unexpectedExits.map((e) => `${e.inst} exited (${e.code ?? e.signal}) during ${e.phase}`).join('; '));
  const bad5xx = results.filter((r) => r.stats.other5xx.length);
  check(!bad5xx.length, '503, not 500, during the outages', bad5xx.map((r) => `${r.name}: ${tallyBy(r.stats.other5xx, (x) => `${x.path} ${x.status}`)}`).join('; '));
  const slow = results.filter((r) => r.name !== 'baseline' && (r.recoverMs === null || r.recoverMs > settings.recoverLimitMs));
  check(!slow.length, `back within ${settings.recoverLimitMs / 1000} s`, slow.map((r) => `${r.name} ${fmtS(r.recoverMs)}`).join('; '));
  const all = [...contactsByPhase.values()];
  const lost = all.reduce((s, c) => s + (Number(c.lost) || 0), 0);
  const doubled = all.reduce((s, c) => s + (Number(c.doubled) || 0), 0);
  const unknown = all.some((c) => c.lost === '?');
  check(!unknown && !lost && !doubled, 'every acknowledged contact stored exactly once', unknown ? 'the stored contacts could not be counted' : `${lost} lost, ${doubled} doubled`);
  check(!mails.missing && !mails.doubled && !mails.idsSeenTwice, 'every mail sent exactly once (one Message-ID)', `${mails.missing} never arrived, ${mails.doubled} doubled, ${mails.idsSeenTwice} Message-IDs seen twice`);
  const lock = results.find((r) => r.name === 'lock');
  if (lock) check(lock.readiness?.not200 === 0, 'readiness 200 during the lock', lock.readiness ? `${lock.readiness.not200} of ${lock.readiness.probes} probes` : 'not measured');
  for (const r of results) for (const f of r.failures) if (!/readiness answered/.test(f)) check(false, `${r.name}: ${f}`);

  for (const e of unexpectedExits) out(`\n${e.inst} exited (${e.code ?? e.signal}) during ${e.phase}; its last log lines:\n${e.log}`);
  if (failures.length) {
    for (const inst of instances) out(`\n--- last lines of instance ${inst.name}'s log:\n${inst.logTail(15)}`);
    if (pgLog) out(`\n--- last lines of the PostgreSQL log:\n${pgLog}`);
  }
  out('');
  out(failures.length ? `${failures.length} assertion(s) failed` : 'all assertions passed');
  return failures.length ? 1 : 0;
}
