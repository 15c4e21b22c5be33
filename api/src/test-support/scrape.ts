import parsePrometheusTextFormat from 'parse-prometheus-text-format';

/** A Prometheus scrape of `/metrics`, parsed as Prometheus would read it (parse-prometheus-text-format). */
export async function scrapeMetrics(baseUrl: string, token: string) {
  const response = await fetch(`${baseUrl}/metrics`, { headers: { authorization: `Bearer ${token}` } });
  if (response.status !== 200) throw new Error(`/metrics answered ${response.status}`);
  const text = await response.text();
  const families = parsePrometheusTextFormat(text);
  const byName = new Map(families.map((f) => [f.name, f]));
  const samples = text
    .split('\n')
    .filter((line) => line && !line.startsWith('#'))
    .map((line) => {
      // `name{a="x",b="y"} 12.5`: our own output, whose label values hold no `",` or spaces.
      const brace = line.indexOf('{');
      const end = line.lastIndexOf(' ');
      const name = brace < 0 ? line.slice(0, end) : line.slice(0, brace);
      const labels: Record<string, string> = {};
      if (brace >= 0) {
        for (const pair of line.slice(brace + 1, line.lastIndexOf('}')).split('",')) {
          const eq = pair.indexOf('=');
          if (eq > 0) labels[pair.slice(0, eq)] = pair.slice(eq + 2).replace(/"$/, '');
        }
      }
      return { name, labels, value: Number(line.slice(end + 1)) };
    });
  return {
    text,
    contentType: response.headers.get('content-type'),
    families,
    /**
     * The sum of the samples named `name` whose labels include `labels`; 0 when none. For a histogram, name its
     * `_count` or `_sum`.
     */
    value(name: string, labels: Record<string, string> = {}): number {
      return samples
        .filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))
        .reduce((sum, s) => sum + s.value, 0);
    },
    /** The label sets of the samples named `name`. */
    labelsOf: (name: string): Array<Record<string, string>> => samples.filter((s) => s.name === name).map((s) => ({ ...s.labels, value: String(s.value) })),
    has: (name: string) => byName.has(name),
    family: (name: string) => byName.get(name),
  };
}
