// @vitest-environment jsdom
// jsdom, not the project's happy-dom: ProseMirror's DOM reading (selection, mutation records) needs its fidelity.
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useEffect } from 'react';
import { FormProvider, useForm, type UseFormReturn } from 'react-hook-form';
import { beforeAll, describe, expect, it } from 'vitest';
import { ContentField } from '../components/content-field';
import { formStateOf, type PostFormState } from '../lib/post-form-schema';

beforeAll(() => {
  // Layout, which jsdom does not do: ProseMirror asks where the selection is to scroll it into view.
  const rect = () => ({ x: 0, y: 0, top: 0, left: 0, bottom: 0, right: 0, width: 0, height: 0, toJSON: () => ({}) });
  Range.prototype.getBoundingClientRect = rect as () => DOMRect;
  Range.prototype.getClientRects = () => Object.assign([], { item: () => null }) as unknown as DOMRectList;
  document.elementFromPoint = () => null;
});

const harness: { form: UseFormReturn<PostFormState> | null } = { form: null };

function Harness({ content }: { content: string }) {
  const methods = useForm<PostFormState>({ defaultValues: { ...formStateOf(null), content } });
  useEffect(() => {
    harness.form = methods;
  });
  return (
    <FormProvider {...methods}>
      <ContentField onEdit={() => undefined} />
    </FormProvider>
  );
}

const editorArea = () => screen.findByRole('textbox', { name: /^Content/ }).then((el) => (el.getAttribute('aria-multiline') === 'true' ? el : Promise.reject(new Error('not the editor'))));

describe('Content field', () => {
  it('edits the same HTML in its HTML view; back in the editor it shows what was typed there, the count following', async () => {
    const user = userEvent.setup({ delay: null });
    render(<Harness content="<h2>Start small</h2><p>Short.</p>" />);
    const area = await waitFor(editorArea, { timeout: 10_000 });
    expect(within(area).getByRole('heading', { level: 2, name: 'Start small' })).toBeTruthy();
    expect(screen.getByRole('toolbar', { name: 'Formatting' })).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'HTML', pressed: false }));
    const source = screen.getByRole('textbox', { name: /^Content/ }) as HTMLTextAreaElement;
    expect(source.tagName).toBe('TEXTAREA');
    expect(source.value).toBe('<h2>Start small</h2><p>Short.</p>');
    expect(screen.queryByRole('toolbar')).toBeNull();
    await user.clear(source);
    await user.click(source);
    await user.paste('<h2>New heading</h2><ul><li>One</li></ul>');
    expect(screen.getByText('41 / 100+ characters')).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'HTML', pressed: true }));
    const again = await waitFor(editorArea);
    expect(within(again).getByRole('heading', { level: 2, name: 'New heading' })).toBeTruthy();
    expect(within(again).getByRole('listitem').textContent).toBe('One');
    // Switching views changes nothing by itself.
    expect(harness.form!.getValues('content')).toBe('<h2>New heading</h2><ul><li>One</li></ul>');
  });

  it('opens a post whose HTML has what the editor cannot show (a figure) in the HTML view, and says why', async () => {
    render(<Harness content={`<figure><img src="/media/a.png" alt="A"><figcaption>Our salon</figcaption></figure><p>${'Words. '.repeat(20)}</p>`} />);
    const source = screen.getByRole('textbox', { name: /^Content/ });
    expect(source.tagName).toBe('TEXTAREA');
    expect(screen.getByRole('button', { name: 'HTML' }).getAttribute('aria-pressed')).toBe('true');
    expect(screen.getByText(/has <figure>, <figcaption>, which the editor cannot show: edit it in the HTML view/)).toBeTruthy();
  });
});
