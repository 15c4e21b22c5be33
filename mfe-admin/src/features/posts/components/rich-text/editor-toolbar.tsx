import type { Editor } from '@tiptap/core';
import { Fragment, memo, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { useEditorValue } from './use-tiptap';

const isMac = typeof navigator !== 'undefined' && /Mac|iPhone|iPad/.test(navigator.platform || navigator.userAgent);

/** A shortcut as the keys' names: 'Mod' is Ctrl, or ⌘ on a Mac. */
type Keys = readonly string[];

/** The shortcut as shown in the button's tooltip (Ctrl+Alt+2, ⌘⌥2). */
export function shortcutLabel(keys: Keys, mac = isMac): string {
  const names: Record<string, string> = mac ? { Mod: '⌘', Alt: '⌥', Shift: '⇧' } : { Mod: 'Ctrl', Alt: 'Alt', Shift: 'Shift' };
  return keys.map((k) => names[k] ?? k).join(mac ? '' : '+');
}

/** The shortcut for aria-keyshortcuts (Control+Alt+2, Meta+Alt+2). */
function ariaShortcut(keys: Keys): string {
  return keys.map((k) => (k === 'Mod' ? (isMac ? 'Meta' : 'Control') : k)).join('+');
}

type Tool = {
  name: string;
  /** The tooltip's words, when more than the name. */
  title?: string;
  keys?: Keys;
  icon: ReactNode;
  /** Which of the editor's states shows the button pressed (aria-pressed). */
  state: keyof ActiveStates;
  run: () => void;
};

/** Where a group of buttons starts (a thin rule before it): marks, headings, lists, then link, quote and image. */
const GROUP_STARTS = new Set([2, 4, 6]);

/** What a button's aria-pressed follows, where the cursor is. */
const STATES = {
  bold: (e: Editor) => e.isActive('bold'),
  italic: (e: Editor) => e.isActive('italic'),
  h2: (e: Editor) => e.isActive('heading', { level: 2 }),
  h3: (e: Editor) => e.isActive('heading', { level: 3 }),
  bulletList: (e: Editor) => e.isActive('bulletList'),
  orderedList: (e: Editor) => e.isActive('orderedList'),
  link: (e: Editor) => e.isActive('link'),
  blockquote: (e: Editor) => e.isActive('blockquote'),
  image: (e: Editor) => e.isActive('image'),
};
type ActiveStates = typeof STATES;
const STATE_NAMES = Object.keys(STATES) as (keyof ActiveStates)[];
/** The states as one number (a bit each), so the toolbar renders again only when one changes. */
const activeBits = (e: Editor) => STATE_NAMES.reduce((bits, name, i) => (STATES[name](e) ? bits | (1 << i) : bits), 0);

const svg = (path: ReactNode) => (
  <svg aria-hidden="true" viewBox="0 0 24 24" className="h-[1.125rem] w-[1.125rem]" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round">
    {path}
  </svg>
);
// Drawn, not written: a button's visible text must be part of its name (WCAG's label in name), and 'H2' is not in
// 'Heading 2'.
const H = <path d="M4 6v12M12 6v12M4 12h8" />;
const ICONS = {
  bold: svg(<path d="M7 5h6a3.5 3.5 0 0 1 0 7H7zM7 12h7a3.5 3.5 0 0 1 0 7H7z" strokeWidth="2.5" />),
  italic: svg(<path d="M10 5h8M6 19h8M14 5l-4 14" />),
  h2: svg(
    <>
      {H}
      <path d="M16 11.5c.4-1.3 1.5-2 2.7-2 1.3 0 2.3.9 2.3 2.1 0 2.1-5 3.3-5 6.4h5" />
    </>,
  ),
  h3: svg(
    <>
      {H}
      <path d="M16.2 10.2c.5-.5 1.3-.8 2.1-.8 1.4 0 2.4.8 2.4 1.9s-1 1.9-2.4 1.9c1.5 0 2.7.8 2.7 2.1 0 1.2-1.2 2.1-2.7 2.1-.9 0-1.8-.3-2.3-.9" />
    </>,
  ),
  bulletList: svg(
    <>
      <path d="M9 6h11M9 12h11M9 18h11" />
      <circle cx="4.5" cy="6" r="1" fill="currentColor" />
      <circle cx="4.5" cy="12" r="1" fill="currentColor" />
      <circle cx="4.5" cy="18" r="1" fill="currentColor" />
    </>,
  ),
  orderedList: svg(
    <>
      <path d="M10 6h10M10 12h10M10 18h10" />
      <path d="M4 5l1.5-1v5M3.5 14.5c.3-.9 2.5-1.2 2.5.3 0 1-2.5 2-2.5 3.2h2.7" strokeWidth="1.5" />
    </>,
  ),
  link: svg(
    <>
      <path d="M10 14a4.5 4.5 0 0 0 6.4 0l3-3a4.5 4.5 0 0 0-6.4-6.4l-1 1" />
      <path d="M14 10a4.5 4.5 0 0 0-6.4 0l-3 3a4.5 4.5 0 0 0 6.4 6.4l1-1" />
    </>,
  ),
  blockquote: svg(<path d="M7 7H4v5h3v1.5C7 15 6 16 4.5 16.5M17 7h-3v5h3v1.5c0 1.5-1 2.5-2.5 3" />),
  image: svg(
    <>
      <rect x="3" y="4.5" width="18" height="15" rx="2" />
      <circle cx="8.5" cy="9.5" r="1.5" />
      <path d="M21 16l-5-5-9 8.5" />
    </>,
  ),
};

/**
 * The formatting toolbar: one Tab stop (arrow keys, Home and End move between its buttons, as WAI-ARIA's toolbar
 * pattern says), each button named, its shortcut in its tooltip and in aria-keyshortcuts, and aria-pressed where the
 * cursor is in bold, a heading, a list, a link or a quote. A click keeps the cursor in the text (mousedown does not
 * take the focus) and the command returns the focus to it. Rendered again only when a pressed state (or a prop) changes.
 */
export const EditorToolbar = memo(function EditorToolbar({ editor, onLink, onImage }: { editor: Editor; onLink: () => void; onImage: () => void }) {
  const bits = useEditorValue(editor, activeBits);
  const pressed = (state: keyof ActiveStates) => (bits & (1 << STATE_NAMES.indexOf(state))) !== 0;
  const [current, setCurrent] = useState(0);
  const buttons = useRef<(HTMLButtonElement | null)[]>([]);
  const chain = () => editor.chain().focus();

  const tools: Tool[] = [
    { name: 'Bold', keys: ['Mod', 'B'], icon: ICONS.bold, state: 'bold', run: () => chain().toggleBold().run() },
    { name: 'Italic', keys: ['Mod', 'I'], icon: ICONS.italic, state: 'italic', run: () => chain().toggleItalic().run() },
    { name: 'Heading 2', keys: ['Mod', 'Alt', '2'], icon: ICONS.h2, state: 'h2', run: () => chain().toggleHeading({ level: 2 }).run() },
    { name: 'Heading 3', keys: ['Mod', 'Alt', '3'], icon: ICONS.h3, state: 'h3', run: () => chain().toggleHeading({ level: 3 }).run() },
    { name: 'Bulleted list', keys: ['Mod', 'Shift', '8'], icon: ICONS.bulletList, state: 'bulletList', run: () => chain().toggleBulletList().run() },
    { name: 'Numbered list', keys: ['Mod', 'Shift', '7'], icon: ICONS.orderedList, state: 'orderedList', run: () => chain().toggleOrderedList().run() },
    { name: 'Link', keys: ['Mod', 'K'], icon: ICONS.link, state: 'link', run: onLink },
    { name: 'Quote', keys: ['Mod', 'Shift', 'B'], icon: ICONS.blockquote, state: 'blockquote', run: () => chain().toggleBlockquote().run() },
    { name: 'Image', title: 'Image from the media library', icon: ICONS.image, state: 'image', run: onImage },
  ];

  function onKeyDown(e: KeyboardEvent) {
    const last = tools.length - 1;
    const next = { ArrowRight: current + 1, ArrowLeft: current - 1, Home: 0, End: last }[e.key];
    if (next === undefined) return;
    e.preventDefault();
    const index = next > last ? 0 : next < 0 ? last : next;
    setCurrent(index);
    buttons.current[index]?.focus();
  }

  return (
    <div
      role="toolbar"
      aria-label="Formatting"
      aria-orientation="horizontal"
      onKeyDown={onKeyDown}
      // Sticky under the site's header (4rem), so a long post keeps its toolbar in view.
      className="sticky top-16 z-10 flex flex-wrap items-center gap-1 rounded-t-[calc(var(--radius-lg)-1px)] border-b border-border bg-surface-muted p-1.5"
    >
      {tools.map((tool, i) => {
        const shortcut = tool.keys ? ` (${shortcutLabel(tool.keys)})` : '';
        return (
          <Fragment key={tool.name}>
            {GROUP_STARTS.has(i) && <span aria-hidden="true" className="mx-1 h-5 w-px bg-border" />}
            <button
              ref={(el) => {
                buttons.current[i] = el;
              }}
              type="button"
              tabIndex={i === current ? 0 : -1}
              aria-label={tool.name}
              title={`${tool.title ?? tool.name}${shortcut}`}
              aria-keyshortcuts={tool.keys ? ariaShortcut(tool.keys) : undefined}
              aria-pressed={tool.state === 'image' ? undefined : pressed(tool.state)}
              onMouseDown={(e) => e.preventDefault()}
              onFocus={() => setCurrent(i)}
              onClick={tool.run}
              className={
                'inline-flex h-9 min-w-9 cursor-pointer items-center justify-center rounded-md px-2 text-fg transition-colors hover:bg-surface focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-ring ' +
                'aria-pressed:bg-primary aria-pressed:text-primary-fg aria-pressed:hover:bg-primary-hover'
              }
            >
              {tool.icon}
            </button>
          </Fragment>
        );
      })}
    </div>
  );
});
