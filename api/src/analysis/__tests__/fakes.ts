import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** Local HTTP servers on 127.0.0.1 standing in for Google Places, Yelp and small business websites. */

export type Handler = (req: http.IncomingMessage, body: string, res: http.ServerResponse) => void;

export interface LocalServer {
  url: string;
  port: number;
  requests: Array<{ method: string; path: string; headers: http.IncomingHttpHeaders; body: string }>;
  close(): Promise<void>;
}

export async function startLocalServer(handler: Handler): Promise<LocalServer> {
  const requests: LocalServer['requests'] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      requests.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, body });
      handler(req, body, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export const json = (res: http.ServerResponse, status: number, data: unknown) => {
  res.writeHead(status, { 'Content-Type': 'application/json' });
  res.end(typeof data === 'string' ? data : JSON.stringify(data));
};

export const html = (res: http.ServerResponse, body: string, headers: Record<string, string> = {}) => {
  res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', ...headers });
  res.end(body);
};

export type ProviderScenario = 'found' | 'not_found' | 'error500' | 'slow' | 'malformed';

export interface FakeProviders {
  server: LocalServer;
  places: { scenario: ProviderScenario; website: string | null; phone: string };
  yelp: { scenario: ProviderScenario; phone: string };
}

const COMPETITORS = [
  { id: 'c1', displayName: { text: 'Rival Bistro' }, rating: 4.1, userRatingCount: 300 },
  { id: 'c2', displayName: { text: 'Corner Diner' }, rating: 3.9, userRatingCount: 120 },
  { id: 'c3', displayName: { text: 'Main Street Grill' }, rating: 4.6, userRatingCount: 800 },
  { id: 'c4', displayName: { text: 'Taqueria Uno' }, rating: 4.3, userRatingCount: 60 },
  { id: 'c5', displayName: { text: 'Noodle House' }, rating: 4.0, userRatingCount: 45 },
];

/**
 * One server answering Places (New) and Yelp Fusion in their documented shapes. `scenario` switches each between
 * found, not found, HTTP 500, slow (never answers in time) and malformed JSON.
 */
export async function startFakeProviders(): Promise<FakeProviders> {
  const state: Omit<FakeProviders, 'server'> = {
    places: { scenario: 'found', website: null, phone: '(925) 555-0100' },
    yelp: { scenario: 'found', phone: '(925) 555-0100' },
  };
  const misbehave = (scenario: ProviderScenario, res: http.ServerResponse) => {
    if (scenario === 'error500') return json(res, 500, { error: { code: 500, message: 'Internal error' } }), true;
    if (scenario === 'malformed') return json(res, 200, '{"places": [ {"id": '), true;
    if (scenario === 'slow') {
      setTimeout(() => json(res, 200, {}), 5_000).unref();
      return true;
    }
    return false;
  };
  const server = await startLocalServer((req, body, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname === '/v1/places:searchText') {
      if (!req.headers['x-goog-api-key'] || !req.headers['x-goog-fieldmask']) return json(res, 403, { error: 'missing key' });
      if (misbehave(state.places.scenario, res)) return;
      const { textQuery } = JSON.parse(body) as { textQuery: string };
      if (/ in /.test(textQuery) && /^(?:restaurants|retail stores|medical clinics|local services)/.test(textQuery)) {
        return json(res, 200, { places: COMPETITORS });
      }
      if (state.places.scenario === 'not_found') return json(res, 200, {});
      return json(res, 200, { places: [{ id: 'place-1', displayName: { text: "Tony's Pizza" }, formattedAddress: '123 Hartz Ave, Danville, CA 94526, USA' }] });
    }
    if (url.pathname === '/v1/places/place-1') {
      return json(res, 200, {
        id: 'place-1',
        displayName: { text: "Tony's Pizza" },
        formattedAddress: '123 Hartz Ave, Danville, CA 94526, USA',
        nationalPhoneNumber: state.places.phone,
        rating: 4.4,
        userRatingCount: 150,
        regularOpeningHours: { weekdayDescriptions: ['Monday: 11:00 AM – 9:00 PM'] },
        photos: Array.from({ length: 12 }, (_, i) => ({ name: `places/place-1/photos/${i}` })),
        ...(state.places.website ? { websiteUri: state.places.website } : {}),
        businessStatus: 'OPERATIONAL',
        types: ['restaurant', 'food'],
        googleMapsUri: 'https://maps.google.com/?cid=1',
      });
    }
    if (url.pathname === '/v3/businesses/search') {
      if (!String(req.headers.authorization ?? '').startsWith('Bearer ')) return json(res, 401, {});
      if (misbehave(state.yelp.scenario, res)) return;
      if (state.yelp.scenario === 'not_found') return json(res, 200, { businesses: [], total: 0 });
      return json(res, 200, {
        total: 1,
        businesses: [{
          id: 'y1', name: "Tony's Pizza", url: 'https://www.yelp.com/biz/tonys-pizza-danville', rating: 4.0, review_count: 88,
          categories: [{ alias: 'pizza', title: 'Pizza' }], display_phone: state.yelp.phone, phone: '+19255550100',
          location: { display_address: ['123 Hartz Ave', 'Danville, CA 94526'] },
        }],
      });
    }
    json(res, 404, {});
  });
  return { server, ...state };
}
