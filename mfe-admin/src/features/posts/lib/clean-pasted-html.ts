/**
 * What a paste from Word or Google Docs brings, reduced to what a post keeps: headings, paragraphs, lists, links,
 * quotes, images with a web address, tables, bold and italic. The editor's schema drops what it does not know anyway;
 * this removes first what it would misread: Word's conditional comments (their fake list bullets), its <o:p> and
 * <style> blocks, and the <b id="docs-internal-guid-…"> that wraps every Google Docs copy (read as bold, it would make
 * the whole paste bold). Word's list paragraphs (class MsoListParagraph…, style mso-list) become real lists, and
 * styled spans become <strong>/<em> where they carry bold or italic. The server's sanitizer
 * (api/src/posts/sanitize-post-html.ts) still has the last word on every save.
 */

/** Kept elements (all others are unwrapped: their children stay). */
const KEEP = new Set([
  'H2', 'H3', 'H4', 'H5', 'H6', 'P', 'BR', 'HR', 'UL', 'OL', 'LI', 'A', 'IMG', 'BLOCKQUOTE', 'PRE', 'CODE',
  'STRONG', 'EM', 'B', 'I', 'S', 'DEL', 'SUB', 'SUP', 'TABLE', 'THEAD', 'TBODY', 'TFOOT', 'TR', 'TH', 'TD',
]);
/** Removed with everything inside them. */
const DROP = new Set([
  'SCRIPT', 'STYLE', 'META', 'LINK', 'TITLE', 'HEAD', 'XML', 'TEMPLATE', 'NOSCRIPT', 'IFRAME', 'OBJECT', 'EMBED',
  'SVG', 'MATH', 'BUTTON', 'INPUT', 'SELECT', 'TEXTAREA', 'FORM', 'CANVAS', 'VIDEO', 'AUDIO',
]);
/** Attributes kept, per element; every other attribute (style, class, id, lang, dir, on…) goes. */
const ATTRIBUTES: Record<string, readonly string[]> = {
  A: ['href', 'title'],
  IMG: ['src', 'alt', 'title', 'width', 'height'],
  OL: ['start'],
  TH: ['colspan', 'rowspan'],
  TD: ['colspan', 'rowspan'],
};

/** The addresses a post's link may have (the sanitizer's rule): http(s), mailto, tel, a site path or an anchor. */
export const SAFE_LINK = /^(?:https?:\/\/[^\s`"'<>]+|mailto:[^\s`"'<>]+|tel:[0-9+\-() ]+|\/(?!\/)[^\s`"'<>]*|#[\w-]*)$/i;
/** An image's address: http(s) or a site path (a pasted file:/// or data: picture cannot be shown to readers). */
export const SAFE_IMAGE = /^(?:https?:\/\/[^\s`"'<>]+|\/(?!\/)[^\s`"'<>]*)$/i;

/**
 * Word's hidden conditional blocks (`<!--[if gte mso 9]><xml>…</xml><![endif]-->`: its settings), removed before parsing.
 * The revealed kind (`<![if !supportLists]>…<![endif]>`) parses as two comments around real content: the list
 * bullet, read by takeWordBullet below.
 */
const CONDITIONAL = /<!--\[if[\s\S]*?<!\[endif\]-->/gi;

function unwrap(el: Element) {
  el.replaceWith(...Array.from(el.childNodes));
}

function wrapChildren(el: Element, tag: 'strong' | 'em') {
  const wrapper = el.ownerDocument.createElement(tag);
  wrapper.append(...Array.from(el.childNodes));
  el.append(wrapper);
}

/** Bold or italic said by a style (Google Docs' spans, Word's): kept as <strong>/<em> before the style goes. */
function keepStyledEmphasis(el: HTMLElement) {
  const style = el.getAttribute('style') ?? '';
  if (!style || el.closest('h1, h2, h3, h4, h5, h6')) return;
  const weight = /font-weight\s*:\s*(?:bold(?:er)?|[6-9]00)/i.test(style);
  const italic = /font-style\s*:\s*italic/i.test(style);
  if (weight) wrapChildren(el, 'strong');
  if (italic) wrapChildren(el, 'em');
}

/** Word's list paragraph (class MsoListParagraph…, or a style with mso-list): its level, 1 for the outermost. */
function wordListLevel(p: Element): number | null {
  const mso = /mso-list\s*:\s*\w+\s+level(\d+)/i.exec(p.getAttribute('style') ?? '');
  if (mso) return Number(mso[1]);
  return /^MsoListParagraph/i.test(p.getAttribute('class') ?? '') ? 1 : null;
}

/** Removes the bullet Word writes as text before the item (a span styled mso-list:Ignore); true when it was a number or letter. */
function takeWordBullet(p: Element): boolean {
  const ignore = Array.from(p.querySelectorAll('span')).find((s) => /mso-list\s*:\s*ignore/i.test(s.getAttribute('style') ?? ''));
  if (!ignore) return false;
  const bullet = (ignore.textContent ?? '').replace(/\u00a0/g, ' ').trim();
  ignore.remove();
  return /^(?:\d+|[a-z]|[ivxlc]+)[.)]$/i.test(bullet);
}

/**
 * Runs of Word list paragraphs become <ul>/<ol> with <li>, nested by their level. The emptied paragraphs stay in place
 * until the end, so that "is the next list paragraph right after this one" is read from the document as pasted.
 */
function buildWordLists(doc: Document) {
  let open: { list: HTMLElement; level: number }[] = [];
  let previous: Element | null = null;
  const done: Element[] = [];
  for (const p of Array.from(doc.body.querySelectorAll('p'))) {
    const level = wordListLevel(p);
    if (level === null) continue;
    if (previous === null || p.previousElementSibling !== previous) open = [];
    const ordered = takeWordBullet(p);
    while (open.length > 0 && open.at(-1)!.level > level) open.pop();
    let top = open.at(-1);
    if (!top || top.level < level) {
      const list = doc.createElement(ordered ? 'ol' : 'ul');
      const parentItem = top?.list.lastElementChild;
      if (parentItem) parentItem.append(list);
      else p.before(list);
      top = { list, level };
      open.push(top);
    }
    const li = doc.createElement('li');
    li.append(...Array.from(p.childNodes));
    top.list.append(li);
    previous = p;
    done.push(p);
  }
  for (const p of done) p.remove();
}

function cleanElement(el: Element) {
  const tag = el.tagName.toUpperCase();
  if (DROP.has(tag) || tag.includes(':')) {
    // <o:p>, <w:sdt>, <v:shape>…: Word's own markup. Its text is spacing or a copy of what is shown elsewhere.
    el.remove();
    return;
  }
  if (el instanceof HTMLElement) keepStyledEmphasis(el);
  for (const child of Array.from(el.children)) cleanElement(child);

  if (tag === 'H1') {
    // A post's title is its page's only h1 (the sanitizer demotes one too): Word's "Heading 1" becomes a section heading.
    const h2 = el.ownerDocument.createElement('h2');
    h2.append(...Array.from(el.childNodes));
    el.replaceWith(h2);
    return;
  }
  if (tag === 'B' && /^docs-internal-guid/.test(el.getAttribute('id') ?? '')) {
    unwrap(el);
    return;
  }
  if (tag === 'A' && !SAFE_LINK.test((el.getAttribute('href') ?? '').trim())) {
    // Word's bookmarks (<a name=…>) and javascript:/data: links: the text stays, the link goes.
    unwrap(el);
    return;
  }
  if (tag === 'IMG' && !SAFE_IMAGE.test((el.getAttribute('src') ?? '').trim())) {
    el.remove();
    return;
  }
  if (!KEEP.has(tag)) {
    unwrap(el);
    return;
  }
  const allowed = ATTRIBUTES[tag] ?? [];
  for (const attr of Array.from(el.attributes)) {
    // ProseMirror's own copy marker (how deep the copied slice was open) keeps a cut and paste inside the editor whole.
    if (!allowed.includes(attr.name) && attr.name !== 'data-pm-slice') el.removeAttribute(attr.name);
  }
}

/** Paragraphs left with nothing to read (Word's spacing: `<p>&nbsp;</p>`). */
function dropEmptyParagraphs(doc: Document) {
  for (const p of Array.from(doc.body.querySelectorAll('p'))) {
    if ((p.textContent ?? '').replace(/\s/g, '') === '' && !p.querySelector('img, br')) p.remove();
  }
}

function dropComments(root: Node) {
  const walker = root.ownerDocument!.createTreeWalker(root, NodeFilter.SHOW_COMMENT);
  const comments: Node[] = [];
  while (walker.nextNode()) comments.push(walker.currentNode);
  for (const comment of comments) comment.parentNode?.removeChild(comment);
}

/** Pasted HTML reduced to the post's elements (see above); the result is what the editor parses. */
export function cleanPastedHtml(html: string): string {
  const doc = new DOMParser().parseFromString(html.replace(CONDITIONAL, ''), 'text/html');
  dropComments(doc.body);
  buildWordLists(doc);
  for (const child of Array.from(doc.body.children)) cleanElement(child);
  dropEmptyParagraphs(doc);
  // The line breaks between Word's blocks (the editor ignores them too).
  for (const node of Array.from(doc.body.childNodes)) if (node.nodeType === Node.TEXT_NODE && !node.textContent?.trim()) node.remove();
  return doc.body.innerHTML.trim();
}
