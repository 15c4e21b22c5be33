// @vitest-environment jsdom
// jsdom, not the projects' happy-dom: DOMPurify under happy-dom drops headings and keeps <script>, so sanitized HTML is only tested in jsdom.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http, HttpResponse } from 'msw';
import { describe, expect, it } from 'vitest';
import type { AdminPostCreate } from '@site/contracts/admin';
import { server } from '../../../../vitest.msw';
import { envelope, makePost, renderAdmin, servePostList, serveSession } from './admin-test-kit';

const CONTENT = `<h2>Start small</h2><p>${'Reminders, rebooking and review requests pay back fastest. '.repeat(3)}</p><script>alert(1)</script>`;

async function fillValidForm(user: ReturnType<typeof userEvent.setup>) {
  await user.type(await screen.findByLabelText(/^Title/), 'Five automations for busy salons');
  await user.type(screen.getByLabelText(/^Excerpt/), 'Small automations that give a salon team back hours.');
  // The content as HTML (the editor's HTML view): a script in it shows what the preview makes of pasted markup.
  await user.click(screen.getByRole('button', { name: 'HTML', pressed: false }));
  await user.click(screen.getByRole('textbox', { name: /^Content/ }));
  await user.paste(CONTENT);
  await user.type(screen.getByLabelText(/^Author/), 'Tri-Valley AI Team');
  await user.selectOptions(screen.getByRole('combobox', { name: /^Category/ }), 'How-To Guides');
  await user.type(screen.getByLabelText(/^Keywords/), ' salon, , automation ,booking,');
  await user.type(screen.getByLabelText(/^Meta description/), 'Five simple automations that save a busy salon hours every single week.');
}

describe('Post form (create)', { timeout: 20_000 }, () => {
  it("shows 'Validation failed: …' and each message next to its field (aria-invalid, aria-describedby)", async () => {
    serveSession();
    let posted = false;
    server.use(http.post('/api/admin/posts', () => ((posted = true), HttpResponse.json({}))));
    const user = userEvent.setup({ delay: null });
    renderAdmin('/admin/posts/create');
    expect(await screen.findByRole('heading', { level: 1, name: 'Create Post' })).toBeTruthy();
    await user.type(screen.getByLabelText(/^Title/), 'Hi');
    await user.click(screen.getByRole('button', { name: 'Create Post' }));

    expect(
      await screen.findByText(
        'Validation failed: Title must be at least 5 characters long, Excerpt must be at least 20 characters long, Content must be at least 100 characters long, Author name must be at least 2 characters long, Choose a category, Meta description must be at least 50 characters long',
      ),
    ).toBeTruthy();
    const title = screen.getByLabelText(/^Title/);
    expect(title.getAttribute('aria-invalid')).toBe('true');
    const describedBy = title.getAttribute('aria-describedby')!.split(' ');
    expect(describedBy.map((id) => document.getElementById(id)?.textContent)).toContain('Title must be at least 5 characters long');
    expect(screen.getByLabelText(/^Meta description/).getAttribute('aria-invalid')).toBe('true');
    expect(posted).toBe(false);

    // Fixing a field removes its message at once.
    await user.type(title, ' there, friends');
    await waitFor(() => expect(title.getAttribute('aria-invalid')).toBeNull());
  });

  it("asks to 'Choose a category' when the list is left unchosen; a typed category keeps the spec's length message", async () => {
    serveSession();
    const user = userEvent.setup({ delay: null });
    renderAdmin('/admin/posts/create');
    await user.type(await screen.findByLabelText(/^Title/), 'Five automations for busy salons');
    await user.click(screen.getByRole('button', { name: 'Create Post' }));
    const select = screen.getByRole('combobox', { name: /^Category/ });
    await waitFor(() => expect(select.getAttribute('aria-invalid')).toBe('true'));
    const described = () => select.getAttribute('aria-describedby')!.split(' ').map((id) => document.getElementById(id)?.textContent);
    expect(described()).toContain('Choose a category');
    expect(screen.getByRole('alert').textContent).toContain('Author name must be at least 2 characters long, Choose a category, Meta description');
    expect(screen.queryByText(/Category must be at least/)).toBeNull();

    // Choosing one clears it.
    await user.selectOptions(select, 'Case Studies');
    await waitFor(() => expect(select.getAttribute('aria-invalid')).toBeNull());

    // 'Other' with one typed letter: the text field gets the spec's message (as the webhook answers it).
    await user.selectOptions(select, 'Other (type a category)');
    const typed = screen.getByLabelText(/^Category name/);
    await user.type(typed, 'X');
    await waitFor(() => expect(typed.getAttribute('aria-invalid')).toBe('true'));
    expect(typed.getAttribute('aria-describedby')!.split(' ').map((id) => document.getElementById(id)?.textContent)).toContain('Category must be at least 2 characters long');
  });

  it('sends trimmed keywords without empties, a typed category, and goes to the list as a draft', async () => {
    serveSession();
    servePostList([]);
    const bodies: AdminPostCreate[] = [];
    server.use(
      http.post('/api/admin/posts', async ({ request }) => {
        const body = (await request.json()) as AdminPostCreate;
        bodies.push(body);
        return HttpResponse.json(makePost({ id: 'new-1', title: body.title }), { status: 201 });
      }),
    );
    const user = userEvent.setup({ delay: null });
    const { location } = renderAdmin('/admin/posts/create');
    await fillValidForm(user);
    await user.selectOptions(screen.getByRole('combobox', { name: /^Category/ }), 'Other (type a category)');
    await user.type(screen.getByLabelText(/^Category name/), 'Salon Tips');
    await user.click(screen.getByRole('button', { name: 'Create Post' }));

    await waitFor(() => expect(location()).toBe('/admin/posts'));
    expect(bodies).toHaveLength(1);
    expect(bodies[0]!.keywords).toEqual(['salon', 'automation', 'booking']);
    expect(bodies[0]!.category).toBe('Salon Tips');
    expect(bodies[0]!.featuredImage).toBeUndefined();
    expect(await screen.findByText('Post created as a draft')).toBeTruthy();
    // The draft kept on this device is gone once the post is saved.
    expect(localStorage.getItem('admin:post-draft:new')).toBeNull();
  });

  it("places the API's validation messages next to the fields", async () => {
    serveSession();
    server.use(
      http.post('/api/admin/posts', () =>
        envelope(400, 'validation_failed', 'Validation failed: featuredImage: Image must be an http(s) URL or a site path', [
          'featuredImage: Image must be an http(s) URL or a site path',
        ]),
      ),
    );
    const user = userEvent.setup({ delay: null });
    renderAdmin('/admin/posts/create');
    await fillValidForm(user);
    await user.click(screen.getByRole('button', { name: 'Create Post' }));
    expect(await screen.findByText('Validation failed: featuredImage: Image must be an http(s) URL or a site path')).toBeTruthy();
    expect(screen.getByLabelText(/^Featured image URL/).getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByText('Image must be an http(s) URL or a site path')).toBeTruthy();
  });

  it("says 'Error creating post. Please try again.' when the server fails, and keeps everything typed", async () => {
    serveSession();
    server.use(http.post('/api/admin/posts', () => envelope(500, 'internal', 'Internal error')));
    const user = userEvent.setup({ delay: null });
    renderAdmin('/admin/posts/create');
    await fillValidForm(user);
    await user.click(screen.getByRole('button', { name: 'Create Post' }));
    expect(await screen.findByText('Error creating post. Please try again.')).toBeTruthy();
    expect((screen.getByLabelText(/^Title/) as HTMLInputElement).value).toBe('Five automations for busy salons');
  });

  it('Preview renders the post as the blog will (the server-sanitized HTML, tags, category) and toggles back', async () => {
    serveSession();
    const sent: string[] = [];
    server.use(
      // Stands in for the server's sanitizer: what it answers is what the preview must show.
      http.post('/api/admin/posts/preview', async ({ request }) => {
        const { content } = (await request.json()) as { content: string };
        sent.push(content);
        return HttpResponse.json({ content: content.replace(/<script[\s\S]*?<\/script>/g, '') + '<p>As the server stores it</p>' });
      }),
    );
    const user = userEvent.setup({ delay: null });
    renderAdmin('/admin/posts/create');
    await fillValidForm(user);
    const toggle = screen.getByRole('button', { name: 'Preview' });
    await user.click(toggle);
    expect(toggle.getAttribute('aria-pressed')).toBe('true');
    const preview = screen.getByRole('region', { name: 'Preview' });
    expect(await within(preview).findByText('As the server stores it')).toBeTruthy();
    expect(sent).toHaveLength(1);
    expect(within(preview).getByRole('heading', { name: 'Five automations for busy salons' })).toBeTruthy();
    expect(within(preview).getByRole('heading', { name: 'Start small' })).toBeTruthy();
    expect(within(preview).getByRole('link', { name: 'How-To Guides' }).getAttribute('href')).toBe('/blog/category/how-to-guides');
    expect(within(preview).getByRole('list', { name: 'Tags' }).textContent).toBe('#salon#automation#booking');
    expect(preview.querySelector('script')).toBeNull();
    expect(within(preview).getByText('By Tri-Valley AI Team')).toBeTruthy();
    expect(screen.getByText('/blog/five-automations-for-busy-salons')).toBeTruthy();

    await user.click(toggle);
    expect(screen.queryByRole('region', { name: 'Preview' })).toBeNull();
    expect((screen.getByLabelText(/^Title/) as HTMLInputElement).value).toBe('Five automations for busy salons');
  });

  it('Preview says so and still shows the browser rendering when the server cannot prepare it', async () => {
    serveSession();
    server.use(http.post('/api/admin/posts/preview', () => HttpResponse.error()));
    const user = userEvent.setup({ delay: null });
    renderAdmin('/admin/posts/create');
    await fillValidForm(user);
    await user.click(screen.getByRole('button', { name: 'Preview' }));
    const preview = screen.getByRole('region', { name: 'Preview' });
    expect((await within(preview).findByRole('alert')).textContent).toMatch(/The server could not prepare the preview/);
    expect(within(preview).getByRole('heading', { name: 'Start small' })).toBeTruthy();
  });
});
