// @vitest-environment jsdom
// jsdom, not the project's happy-dom: ProseMirror's DOM reading (selection, mutation records) needs its fidelity.
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useEffect } from 'react';
import { FormProvider, useForm, type UseFormReturn } from 'react-hook-form';
import { beforeAll, describe, expect, it } from 'vitest';
import RichTextEditor from '../components/rich-text/rich-text-editor';
import { formStateOf, type PostFormState } from '../lib/post-form-schema';
import { WORD_HTML } from './paste-fixtures';

beforeAll(() => {
  // Layout, which jsdom does not do: ProseMirror asks where the selection is to scroll it into view.
  const rect = () => ({ x: 0, y: 0, top: 0, left: 0, bottom: 0, right: 0, width: 0, height: 0, toJSON: () => ({}) });
  const rects = () => Object.assign([], { item: () => null }) as unknown as DOMRectList;
  Range.prototype.getBoundingClientRect = rect as () => DOMRect;
  Range.prototype.getClientRects = rects;
  document.elementFromPoint = () => null;
});

/** The rendered form, as the test reads and resets it. */
const harness: { form: UseFormReturn<PostFormState> | null } = { form: null };
const form = () => harness.form!;
const edits: string[] = [];

function Harness({ content, invalid = false }: { content: string; invalid?: boolean }) {
  const methods = useForm<PostFormState>({ defaultValues: { ...formStateOf(null), content } });
  useEffect(() => {
    harness.form = methods;
  });
  return (
    <FormProvider {...methods}>
      <span id="content-label">Content (required)</span>
      <p id="content-hint">Headings, lists and links.</p>
      <RichTextEditor id="content-area" labelId="content-label" describedBy="content-hint" invalid={invalid} onEdit={() => edits.push('edit')} />
    </FormProvider>
  );
}

const STORED = '<h2>Start small</h2><p>Reminders pay back fastest.</p>';

function paste(target: HTMLElement, html: string) {
  const event = new Event('paste', { bubbles: true, cancelable: true });
  const data: Record<string, string> = { 'text/html': html, 'text/plain': 'pasted' };
  Object.defineProperty(event, 'clipboardData', { value: { getData: (type: string) => data[type] ?? '', types: Object.keys(data), files: [], items: [] } });
  act(() => {
    target.dispatchEvent(event);
  });
}

describe('Rich-text content editor', () => {
  it('is a labelled multi-line textbox with a named toolbar: each button its shortcut, one Tab stop, arrows move', async () => {
    render(<Harness content={STORED} invalid />);
    const area = screen.getByRole('textbox', { name: 'Content (required)' });
    expect(area.getAttribute('aria-multiline')).toBe('true');
    expect(area.getAttribute('aria-describedby')).toBe('content-hint');
    expect(area.getAttribute('aria-invalid')).toBe('true');
    expect(within(area).getByRole('heading', { level: 2, name: 'Start small' })).toBeTruthy();

    const toolbar = screen.getByRole('toolbar', { name: 'Formatting' });
    const buttons = within(toolbar).getAllByRole('button');
    expect(buttons.map((b) => b.getAttribute('aria-label'))).toEqual(['Bold', 'Italic', 'Heading 2', 'Heading 3', 'Bulleted list', 'Numbered list', 'Link', 'Quote', 'Image']);
    expect(buttons.map((b) => b.title)).toEqual([
      'Bold (Ctrl+B)',
      'Italic (Ctrl+I)',
      'Heading 2 (Ctrl+Alt+2)',
      'Heading 3 (Ctrl+Alt+3)',
      'Bulleted list (Ctrl+Shift+8)',
      'Numbered list (Ctrl+Shift+7)',
      'Link (Ctrl+K)',
      'Quote (Ctrl+Shift+B)',
      'Image from the media library',
    ]);
    expect(within(toolbar).getByRole('button', { name: 'Bold' }).getAttribute('aria-keyshortcuts')).toBe('Control+B');
    expect(buttons.filter((b) => b.tabIndex === 0)).toEqual([buttons[0]]);
    const user = userEvent.setup({ delay: null });
    buttons[0]!.focus();
    await user.keyboard('{ArrowRight}');
    expect(document.activeElement).toBe(buttons[1]);
    await user.keyboard('{End}');
    expect(document.activeElement).toBe(buttons.at(-1));
    await user.keyboard('{ArrowRight}');
    expect(document.activeElement).toBe(buttons[0]);
  });

  it('a toolbar button formats the text, shows itself pressed, and writes the HTML to the form as an edit', async () => {
    edits.length = 0;
    render(<Harness content={STORED} />);
    const user = userEvent.setup({ delay: null });
    const area = screen.getByRole('textbox', { name: /^Content/ });
    const h2 = screen.getByRole('button', { name: 'Heading 2' });
    const quote = screen.getByRole('button', { name: 'Quote' });
    // The cursor starts in the heading.
    await waitFor(() => expect(h2.getAttribute('aria-pressed')).toBe('true'));
    expect(quote.getAttribute('aria-pressed')).toBe('false');
    await user.click(quote);
    await waitFor(() => expect(quote.getAttribute('aria-pressed')).toBe('true'));
    // Written once the change has painted, one top-level block a line.
    await waitFor(() => expect(form().getValues('content')).toBe('<blockquote><h2>Start small</h2></blockquote>\n<p>Reminders pay back fastest.</p>'));
    expect(edits.length).toBeGreaterThan(0);
    expect(area.querySelector('blockquote h2')?.textContent).toBe('Start small');
  });

  it('pasting from Word keeps the headings, lists and links and drops the script, styles and Word markup', () => {
    render(<Harness content="" />);
    const area = screen.getByRole('textbox', { name: /^Content/ });
    paste(area, WORD_HTML);
    // Leaving the editor (a click on Save) writes its HTML to the form at once.
    act(() => {
      fireEvent.blur(area);
    });
    const html = form().getValues('content');
    expect(html).toContain('<h2>Why salons automate</h2>');
    expect(html).toContain('<h2>Three quick wins</h2>');
    expect(html).toContain('<ul><li><p>Text reminders</p></li><li><p>Online booking</p></li></ul>');
    expect(html).toContain('<ol><li><p>Pick a tool</p></li><li><p>Turn it on</p></li></ol>');
    expect(html).toContain('<a href="https://example.com/study">the study</a>');
    expect(html).not.toMatch(/script|style=|class=|<span|o:p|mso|javascript|file:/i);
    expect((window as { __pasted?: boolean }).__pasted).toBeUndefined();
  });

  it('moving the cursor in a stored post is no edit, though the editor reads it into its own form (an empty paragraph after a closing list)', async () => {
    edits.length = 0;
    const stored = '<h2>Start small</h2>\n<ul>\n  <li>One</li>\n</ul>';
    render(<Harness content={stored} />);
    const user = userEvent.setup({ delay: null });
    const area = screen.getByRole('textbox', { name: /^Content/ });
    act(() => area.focus());
    await user.keyboard('{ArrowDown}{ArrowLeft}');
    await waitFor(() => expect(area.lastElementChild?.outerHTML).toBe('<p><br class="ProseMirror-trailingBreak"></p>'));
    await act(() => new Promise((resolve) => setTimeout(resolve, 100)));
    expect(form().getValues('content')).toBe(stored);
    expect(edits).toEqual([]);
  });

  it("shows content put in the form from elsewhere (a restored revision or draft), without calling it the writer's edit", async () => {
    edits.length = 0;
    render(<Harness content={STORED} />);
    const area = screen.getByRole('textbox', { name: /^Content/ });
    act(() => form().reset({ ...form().getValues(), content: '<h2>Restored version</h2><ul><li>One</li></ul>' }));
    await waitFor(() => expect(within(area).getByRole('heading', { level: 2, name: 'Restored version' })).toBeTruthy());
    expect(within(area).getByRole('listitem').textContent).toBe('One');
    expect(form().getValues('content')).toBe('<h2>Restored version</h2><ul><li>One</li></ul>');
    expect(edits).toEqual([]);
  });
});
