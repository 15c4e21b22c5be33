import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { MediaItem } from '@site/contracts/media';
import { server } from '../../../../vitest.msw';
import { envelope, renderAdmin, serveSession } from './admin-test-kit';

/* Issue 24: the media library screen and the post form's uploads, against MSW. Issue 32: the library pages, and
   each image is processed after its upload (processing, then ready or failed). */

const HASH = 'abcdef0123456789abcdef01';
function makeMedia(overrides: Partial<MediaItem> = {}): MediaItem {
  return {
    id: 'm1',
    url: `/media/${HASH}-1600x1200.jpg`,
    ogUrl: `/media/${HASH}-og.jpg`,
    width: 1600,
    height: 1200,
    format: 'jpeg',
    alt: '',
    filename: 'office.jpg',
    bytes: 2_400_000,
    createdAt: '2026-11-20T10:00:00.000Z',
    variants: [480, 960, 1600].flatMap((w) => ['avif', 'webp', 'jpg'].map((format) => ({ url: `/media/${HASH}-${w}.${format}`, width: w, height: (w * 3) / 4, format }))),
    state: 'ready',
    usedBy: [],
    ...overrides,
  };
}

/** One page of the library as GET /api/admin/media answers it. */
const page = (media: MediaItem[], nextCursor: string | null = null) => HttpResponse.json({ media, nextCursor });
const processing = (overrides: Partial<MediaItem> = {}) => makeMedia({ state: 'processing', variants: [], ...overrides });

const png = () => new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2, 3])], 'logo.png', { type: 'image/png' });

describe('Media screen', { timeout: 20_000 }, () => {
  it('lists images in a grid with where each is used; saves alt text; delete is refused while used', async () => {
    const user = userEvent.setup();
    serveSession();
    const patched: unknown[] = [];
    server.use(
      http.get('/api/admin/media', () =>
        page([makeMedia(), makeMedia({ id: 'm2', filename: 'hero.png', format: 'png', usedBy: [{ id: 'post-9', title: 'Chatbots for salons', field: 'featuredImage' }] })]),
      ),
      http.patch('/api/admin/media/m1', async ({ request }) => {
        const body = (await request.json()) as { alt: string };
        patched.push(body);
        return HttpResponse.json(makeMedia({ alt: body.alt }));
      }),
    );
    renderAdmin('/admin/media');
    const grid = await screen.findByRole('list', { name: 'Images' });
    const cards = within(grid).getAllByRole('listitem').filter((li) => li.parentElement === grid);
    expect(cards).toHaveLength(2);
    expect(screen.getByText('2 images')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Media' }).getAttribute('aria-current')).toBe('page');

    const used = cards[1]!;
    expect(within(used).getByRole('link', { name: 'Chatbots for salons' }).getAttribute('href')).toBe('/admin/posts/post-9/edit');
    expect((within(used).getByRole('button', { name: /Delete/ }) as HTMLButtonElement).disabled).toBe(true);
    expect(within(used).getByText(/In use/)).toBeTruthy();

    const first = cards[0]!;
    expect(within(first).getByText('No post.')).toBeTruthy();
    await user.type(within(first).getByLabelText('Alt text'), 'Our office in Danville');
    await user.click(within(first).getByRole('button', { name: 'Save alt text' }));
    expect(await screen.findByText('Alt text saved')).toBeTruthy();
    expect(patched).toEqual([{ alt: 'Our office in Danville' }]);
  });

  it('names a deleted post that still uses an image (restorable) without a link to edit it, and keeps delete off', async () => {
    serveSession();
    server.use(
      http.get('/api/admin/media', () =>
        page([makeMedia({ usedBy: [{ id: 'post-3', title: 'Old salon post', field: 'featuredImage', deleted: true }] })]),
      ),
    );
    renderAdmin('/admin/media');
    const grid = await screen.findByRole('list', { name: 'Images' });
    const card = within(grid).getAllByRole('listitem')[0]!;
    expect(within(card).getByText('Old salon post')).toBeTruthy();
    expect(within(card).queryByRole('link', { name: 'Old salon post' })).toBeNull();
    expect(within(card).getByText(/a deleted post, restorable under Posts, Recently deleted/)).toBeTruthy();
    expect((within(card).getByRole('button', { name: /Delete/ }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('shows the server’s 409 when an image became used meanwhile, and deletes an unused one', async () => {
    const user = userEvent.setup();
    serveSession();
    let deletes = 0;
    server.use(
      http.get('/api/admin/media', () => page([makeMedia()])),
      http.delete('/api/admin/media/m1', () => {
        deletes += 1;
        return deletes === 1 ? envelope(409, 'media_in_use', 'This image is used by "New post". Choose another image there first.') : new HttpResponse(null, { status: 204 });
      }),
    );
    renderAdmin('/admin/media');
    await user.click(await screen.findByRole('button', { name: 'Delete office.jpg' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText(/used by "New post"/)).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Delete office.jpg' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Image deleted')).toBeTruthy();
    expect(screen.queryByRole('list', { name: 'Images' })).toBeNull();
  });

  it('uploads a chosen file (progress, then the new image first in the grid) and shows a refusal in words', async () => {
    const user = userEvent.setup();
    serveSession();
    let answer: 'ok' | 'refuse' = 'refuse';
    server.use(
      http.get('/api/admin/media', () => page([])),
      http.post('/api/admin/media', () =>
        answer === 'ok'
          ? HttpResponse.json(makeMedia({ id: 'm3', filename: 'logo.png', format: 'png' }), { status: 201 })
          : envelope(400, 'type_mismatch', "The file's content is a PNG image, but its name (.jpg) says otherwise."),
      ),
    );
    const { container } = renderAdmin('/admin/media');
    expect(await screen.findByText(/No images yet/)).toBeTruthy();
    const input = container.querySelector('input[type=file]') as HTMLInputElement;
    await user.upload(input, png());
    const uploads = await screen.findByRole('list', { name: 'Uploads' });
    await waitFor(() => expect(within(uploads).getByRole('listitem').textContent).toBe("logo.pngFailed: The file's content is a PNG image, but its name (.jpg) says otherwise.Retry"));
    expect(screen.getByText('0 of 1 ready, 1 failed')).toBeTruthy();

    answer = 'ok';
    const zone = screen.getByRole('button', { name: 'Choose images' }).parentElement!;
    fireEvent.drop(zone, { dataTransfer: { files: [png()] } });
    const grid = await screen.findByRole('list', { name: 'Images' });
    expect(within(grid).getByText('logo.png')).toBeTruthy();
    await waitFor(() => expect(within(uploads).getAllByRole('listitem')[1]!.textContent).toBe('logo.pngReady'));
    // The failed one is still listed, and its Retry sends it again (the focus stays on its line).
    const failed = within(uploads).getAllByRole('listitem')[0]!;
    await user.click(within(uploads).getByRole('button', { name: 'Retry logo.png' }));
    expect(document.activeElement).toBe(failed);
    await waitFor(() => expect(within(uploads).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['logo.pngReady', 'logo.pngReady']));
    expect(screen.getByText('2 of 2 ready')).toBeTruthy();
    // Clear finished takes the ready ones off the list; the focus goes back to Choose images.
    await user.click(screen.getByRole('button', { name: 'Clear finished' }));
    expect(screen.queryByRole('list', { name: 'Uploads' })).toBeNull();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Choose images' }));
  });

  it('uploads a dropped batch two at a time, waits out each 503 media_busy for its Retry-After, and lands every file', async () => {
    serveSession();
    // The server's image queue: room for two images, one more each second; past it 503 media_busy, Retry-After: 1.
    let room = 2;
    const refill = setInterval(() => (room = Math.min(2, room + 1)), 1000);
    const requests: Array<{ start: number; answered: number; busy: boolean }> = [];
    let inFlight = 0;
    let mostAtOnce = 0;
    server.use(
      http.get('/api/admin/media', () => page([])),
      http.post('/api/admin/media', async ({ request }) => {
        const seen = { start: Date.now(), answered: 0, busy: false };
        requests.push(seen);
        inFlight += 1;
        mostAtOnce = Math.max(mostAtOnce, inFlight);
        const name = ((await request.formData()).get('file') as File).name;
        await new Promise((resolve) => setTimeout(resolve, 20));
        inFlight -= 1;
        seen.busy = room === 0;
        seen.answered = Date.now();
        if (seen.busy) {
          return HttpResponse.json(
            { error: { code: 'media_busy', message: 'Other images are being processed right now. Try again in 1 second.' } },
            { status: 503, headers: { 'Retry-After': '1' } },
          );
        }
        room -= 1;
        return HttpResponse.json(makeMedia({ id: `id-${name}`, filename: name, url: `/media/${HASH}-${name}` }), { status: 201 });
      }),
    );
    try {
      renderAdmin('/admin/media');
      await screen.findByText(/No images yet/);
      const names = Array.from({ length: 6 }, (_, i) => `salon-${i + 1}.png`);
      const zone = screen.getByRole('button', { name: 'Choose images' }).parentElement!;
      fireEvent.drop(zone, { dataTransfer: { files: names.map((name) => new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47, names.indexOf(name)])], name, { type: 'image/png' })) } });
      const uploads = await screen.findByRole('list', { name: 'Uploads' });
      expect(within(uploads).getAllByRole('listitem')).toHaveLength(6);
      // While the server is busy a file says how long it waits, and why.
      await waitFor(() => expect(uploads.textContent).toMatch(/Waiting to retry in 1 s \(the server is busy with other images\)/), { timeout: 5000 });
      await waitFor(() => expect(within(uploads).getAllByRole('listitem').map((li) => li.textContent)).toEqual(names.map((n) => `${n}Ready`)), { timeout: 15_000 });
      expect(screen.getByText('6 of 6 ready')).toBeTruthy();
      expect(cardsOf(screen.getByRole('list', { name: 'Images' }))).toHaveLength(6);

      expect(requests.filter((r) => r.busy).length).toBeGreaterThan(0);
      expect(mostAtOnce).toBeLessThanOrEqual(2);
      // Nothing is sent in the second after a 503 (its Retry-After).
      for (const refusal of requests.filter((r) => r.busy)) {
        expect(requests.filter((r) => r.start > refusal.answered && r.start < refusal.answered + 990)).toEqual([]);
      }
    } finally {
      clearInterval(refill);
    }
  });

  it('refuses an SVG and a file over 10 MB before sending anything', async () => {
    const user = userEvent.setup({ applyAccept: false });
    serveSession();
    let posts = 0;
    server.use(
      http.get('/api/admin/media', () => page([])),
      http.post('/api/admin/media', () => {
        posts += 1;
        return envelope(500, 'x', 'x');
      }),
    );
    const { container } = renderAdmin('/admin/media');
    await screen.findByText(/No images yet/);
    const input = container.querySelector('input[type=file]') as HTMLInputElement;
    await user.upload(input, new File(['<svg/>'], 'x.svg', { type: 'image/svg+xml' }));
    const uploads = await screen.findByRole('list', { name: 'Uploads' });
    expect(within(uploads).getByRole('listitem').textContent).toMatch(/^x\.svgFailed: SVG images are not accepted/);
    const big = new File([new Uint8Array(10 * 1024 * 1024 + 1)], 'big.jpg', { type: 'image/jpeg' });
    await user.upload(input, big);
    await waitFor(() => expect(within(uploads).getAllByRole('listitem')[1]!.textContent).toBe('big.jpgFailed: The image is larger than 10 MB.'));
    // Sending them again cannot help: no Retry.
    expect(within(uploads).queryByRole('button', { name: /^Retry/ })).toBeNull();
    expect(posts).toBe(0);
  });
});

/** Cards of the grid (not the lists of posts inside them). */
function cardsOf(grid: HTMLElement) {
  return within(grid)
    .getAllByRole('listitem')
    .filter((li) => li.parentElement === grid);
}

describe('Media library pages and processing', { timeout: 20_000 }, () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('loads older images with Load more (busy, keeping the focus, then on the first new image), keeping pages through an upload and a delete', async () => {
    const user = userEvent.setup();
    serveSession();
    let release: () => void = () => {};
    const older = new Promise<void>((resolve) => (release = resolve));
    const asked: Array<string | null> = [];
    server.use(
      http.get('/api/admin/media', async ({ request }) => {
        const cursor = new URL(request.url).searchParams.get('cursor');
        asked.push(cursor);
        if (cursor === null) return page([makeMedia({ id: 'm5', filename: 'five.jpg' }), makeMedia({ id: 'm4', filename: 'four.jpg' })], 'after-m4');
        await older;
        return page([makeMedia({ id: 'm3', filename: 'three.jpg' })]);
      }),
      http.post('/api/admin/media', () => HttpResponse.json(makeMedia({ id: 'm6', filename: 'logo.png', format: 'png' }), { status: 201 })),
      http.delete('/api/admin/media/m3', () => new HttpResponse(null, { status: 204 })),
    );
    const { container } = renderAdmin('/admin/media');
    const grid = await screen.findByRole('list', { name: 'Images' });
    expect(cardsOf(grid)).toHaveLength(2);
    expect(screen.getByText('2 images shown')).toBeTruthy();

    const more = screen.getByRole('button', { name: 'Load more images' });
    more.focus();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(more.textContent).toBe('Loading images…'));
    expect(more.getAttribute('aria-disabled')).toBe('true');
    expect(document.activeElement).toBe(more);
    await user.keyboard('{Enter}');
    expect(asked).toEqual([null, 'after-m4']);

    release();
    await waitFor(() => expect(cardsOf(grid)).toHaveLength(3));
    const third = cardsOf(grid)[2]!;
    expect(within(third).getByText('three.jpg')).toBeTruthy();
    await waitFor(() => expect(document.activeElement).toBe(third));
    expect(screen.queryByRole('button', { name: 'Load more images' })).toBeNull();
    expect(screen.getByText('1 more image loaded; that is every image.')).toBeTruthy();
    expect(screen.getByText('3 images')).toBeTruthy();

    await user.upload(container.querySelector('input[type=file]') as HTMLInputElement, png());
    await waitFor(() => expect(cardsOf(grid).map((li) => within(li).getAllByText(/\.(jpg|png)$/)[0]!.textContent)).toEqual(['logo.png', 'five.jpg', 'four.jpg', 'three.jpg']));

    await user.click(screen.getByRole('button', { name: 'Delete three.jpg' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(cardsOf(grid)).toHaveLength(3));
    expect(screen.getByText('3 images')).toBeTruthy();
    expect(asked).toEqual([null, 'after-m4']);
  });

  it('shows a processing image as words in place of its thumbnail, asks again every 2 s, shows it when ready and stops asking', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    serveSession();
    let polls = 0;
    server.use(
      http.get('/api/admin/media', () => page([processing()])),
      http.get('/api/admin/media/m1', () => {
        polls += 1;
        return HttpResponse.json(polls < 2 ? processing() : makeMedia());
      }),
    );
    renderAdmin('/admin/media');
    const grid = await screen.findByRole('list', { name: 'Images' });
    const card = cardsOf(grid)[0]!;
    expect(within(card).getByRole('status').textContent).toMatch(/Making the image's sizes…/);
    expect(card.querySelector('img')).toBeNull();

    await vi.advanceTimersByTimeAsync(2100);
    await waitFor(() => expect(polls).toBe(1));
    expect(within(card).getByRole('status').textContent).toMatch(/Making the image's sizes…/);
    await vi.advanceTimersByTimeAsync(2100);
    await waitFor(() => expect(card.querySelector('img')?.getAttribute('src')).toBe(`/media/${HASH}-480.webp`));
    expect(within(card).queryByText(/Making the image's sizes/)).toBeNull();

    await vi.advanceTimersByTimeAsync(10_000);
    expect(polls).toBe(2);
  });

  it('says why a failed image has no sizes, in danger colours, and still lets it be deleted', async () => {
    const user = userEvent.setup();
    serveSession();
    const reason = 'The image could not be processed. Upload it again, or save it in another format first.';
    server.use(
      http.get('/api/admin/media', () => page([makeMedia({ state: 'failed', error: reason, variants: [] })])),
      http.delete('/api/admin/media/m1', () => new HttpResponse(null, { status: 204 })),
    );
    renderAdmin('/admin/media');
    const grid = await screen.findByRole('list', { name: 'Images' });
    const status = within(cardsOf(grid)[0]!).getByRole('status');
    expect(status.textContent).toContain('Its sizes could not be made');
    expect(status.textContent).toContain(reason);
    expect(status.className).toMatch(/bg-danger-soft/);
    await user.click(screen.getByRole('button', { name: 'Delete office.jpg' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Image deleted')).toBeTruthy();
    expect(screen.queryByRole('list', { name: 'Images' })).toBeNull();
  });

  it("says on the file's line that its sizes are being made, then that it is ready", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime.bind(vi) });
    serveSession();
    let polls = 0;
    server.use(
      http.get('/api/admin/media', () => page([])),
      http.post('/api/admin/media', () => HttpResponse.json(processing({ id: 'm7', filename: 'logo.png' }), { status: 201 })),
      http.get('/api/admin/media/m7', () => {
        polls += 1;
        return HttpResponse.json(polls < 2 ? processing({ id: 'm7', filename: 'logo.png' }) : makeMedia({ id: 'm7', filename: 'logo.png' }));
      }),
    );
    const { container } = renderAdmin('/admin/media');
    await screen.findByText(/No images yet/);
    await user.upload(container.querySelector('input[type=file]') as HTMLInputElement, png());
    const row = within(await screen.findByRole('list', { name: 'Uploads' })).getByRole('listitem');
    await waitFor(() => expect(row.textContent).toBe('logo.pngProcessing: making its sizes'));
    expect(screen.getByText('0 of 1 ready')).toBeTruthy();
    const card = cardsOf(screen.getByRole('list', { name: 'Images' }))[0]!;
    expect(within(card).getByRole('status').textContent).toMatch(/Making the image's sizes…/);

    await vi.advanceTimersByTimeAsync(4200);
    await waitFor(() => expect(row.textContent).toBe('logo.pngReady'));
    expect(screen.getByText('1 of 1 ready')).toBeTruthy();
    expect(card.querySelector('img')).not.toBeNull();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(polls).toBe(2);
  });
});

describe('Post form uploads', { timeout: 20_000 }, () => {
  it('fills the featured image with the media URL and the OG image with its 1200x630 JPEG', async () => {
    const user = userEvent.setup();
    serveSession();
    server.use(http.post('/api/admin/media', () => HttpResponse.json(makeMedia(), { status: 201 })));
    const { container } = renderAdmin('/admin/posts/create');
    await screen.findByRole('button', { name: 'Upload featured image' });
    const inputs = container.querySelectorAll('input[type=file]');
    await user.upload(inputs[0] as HTMLInputElement, new File([new Uint8Array([0xff, 0xd8, 0xff])], 'office.jpg', { type: 'image/jpeg' }));
    await waitFor(() => expect((screen.getByLabelText(/^Featured image URL/) as HTMLInputElement).value).toBe(`/media/${HASH}-1600x1200.jpg`));
    await user.upload(inputs[1] as HTMLInputElement, new File([new Uint8Array([0xff, 0xd8, 0xff])], 'office.jpg', { type: 'image/jpeg' }));
    await waitFor(() => expect((screen.getByLabelText(/^OG image URL/) as HTMLInputElement).value).toBe(`/media/${HASH}-og.jpg`));
  });

  it('fills the field at once with an image still processing, and says when its sizes could not be made', async () => {
    const user = userEvent.setup();
    serveSession();
    const reason = 'The original of the image is missing. Upload it again.';
    server.use(
      http.post('/api/admin/media', () => HttpResponse.json(processing(), { status: 201 })),
      http.get('/api/admin/media/m1', () => HttpResponse.json(makeMedia({ state: 'failed', error: reason, variants: [] }))),
    );
    const { container } = renderAdmin('/admin/posts/create');
    await screen.findByRole('button', { name: 'Upload featured image' });
    await user.upload(container.querySelector('input[type=file]') as HTMLInputElement, new File([new Uint8Array([0xff, 0xd8, 0xff])], 'office.jpg', { type: 'image/jpeg' }));
    await waitFor(() => expect((screen.getByLabelText(/^Featured image URL/) as HTMLInputElement).value).toBe(`/media/${HASH}-1600x1200.jpg`));
    expect(screen.getByText("Making the image's sizes… Posts can use it now.")).toBeTruthy();
    expect((await screen.findByRole('alert', {}, { timeout: 5000 })).textContent).toBe(`Its sizes could not be made. ${reason}`);
  });
});
