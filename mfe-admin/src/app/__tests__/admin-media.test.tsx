import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import type { MediaItem } from '@site/contracts/media';
import { server } from '../../../../vitest.setup-dom';
import { envelope, renderAdmin, serveSession } from './admin-test-kit';

/* Issue 24: the media library screen and the post form's uploads, against MSW. */

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
    usedBy: [],
    ...overrides,
  };
}

const png = () => new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2, 3])], 'logo.png', { type: 'image/png' });

describe('Media screen', { timeout: 20_000 }, () => {
  it('lists images in a grid with where each is used; saves alt text; delete is refused while used', async () => {
    const user = userEvent.setup();
    serveSession();
    const patched: unknown[] = [];
    server.use(
      http.get('/api/admin/media', () =>
        HttpResponse.json({
          media: [makeMedia(), makeMedia({ id: 'm2', filename: 'hero.png', format: 'png', usedBy: [{ id: 'post-9', title: 'Chatbots for salons', field: 'featuredImage' }] })],
        }),
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
        HttpResponse.json({ media: [makeMedia({ usedBy: [{ id: 'post-3', title: 'Old salon post', field: 'featuredImage', deleted: true }] })] }),
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
      http.get('/api/admin/media', () => HttpResponse.json({ media: [makeMedia()] })),
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
      http.get('/api/admin/media', () => HttpResponse.json({ media: [] })),
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
    expect(await screen.findByRole('alert')).toHaveProperty('textContent', "The file's content is a PNG image, but its name (.jpg) says otherwise.");

    answer = 'ok';
    const zone = screen.getByRole('button', { name: 'Choose image' }).parentElement!;
    fireEvent.drop(zone, { dataTransfer: { files: [png()] } });
    const grid = await screen.findByRole('list', { name: 'Images' });
    expect(within(grid).getByText('logo.png')).toBeTruthy();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('refuses an SVG and a file over 10 MB before sending anything', async () => {
    const user = userEvent.setup({ applyAccept: false });
    serveSession();
    let posts = 0;
    server.use(
      http.get('/api/admin/media', () => HttpResponse.json({ media: [] })),
      http.post('/api/admin/media', () => {
        posts += 1;
        return envelope(500, 'x', 'x');
      }),
    );
    const { container } = renderAdmin('/admin/media');
    await screen.findByText(/No images yet/);
    const input = container.querySelector('input[type=file]') as HTMLInputElement;
    await user.upload(input, new File(['<svg/>'], 'x.svg', { type: 'image/svg+xml' }));
    expect((await screen.findByRole('alert')).textContent).toMatch(/SVG images are not accepted/);
    const big = new File([new Uint8Array(10 * 1024 * 1024 + 1)], 'big.jpg', { type: 'image/jpeg' });
    await user.upload(input, big);
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe('The image is larger than 10 MB.'));
    expect(posts).toBe(0);
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
});
