/** Longest stored file name, in characters (code points), its extension included. */
export const MEDIA_FILENAME_MAX = 200;
/** The name of an image whose own name had nothing left once cleaned (its extension kept). */
export const MEDIA_FILENAME_FALLBACK = 'image';
/** Longer than this after the last dot, it is no extension but part of the name. */
const EXTENSION_MAX = 10;

/*
 * Removed from a name: C0 and C1 controls and DEL (a NUL is refused by PostgreSQL; the others hide or fake text on the
 * Media screen), bidirectional marks, embeddings, overrides and isolates (U+061C, U+200E-U+200F, U+202A-U+202E,
 * U+2066-U+2069: "photo\u202Egpj.exe" reads as "photoexe.jpg"), invisible characters (zero-width space, word joiner and
 * invisible operators, the byte order mark) and lone surrogates. Zero-width (non-)joiners stay: scripts and emoji
 * need them.
 */
// eslint-disable-next-line no-control-regex -- removing control characters is the point
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200b\u200e\u200f\u202a-\u202e\u2060-\u2069\ufeff\p{Cs}]/gu;
const SPACES = /\s+/gu;

const codePoints = (text: string) => Array.from(text);

/**
 * An uploaded file's name as the library stores and shows it: unsafe characters removed, white space runs made one
 * space, at most MEDIA_FILENAME_MAX characters with the extension kept whole, and MEDIA_FILENAME_FALLBACK (with the
 * extension) when nothing of the name is left. An empty name stays empty: no extension to keep.
 */
export function cleanMediaFilename(raw: string): string {
  // White space first (a tab or line break is a space), then what is left of the unsafe characters goes.
  const name = raw.normalize('NFC').replace(SPACES, ' ').replace(UNSAFE, '').replace(SPACES, ' ').trim();
  if (!name) return '';
  const dot = name.lastIndexOf('.');
  const extension = dot >= 0 && name.length - dot - 1 <= EXTENSION_MAX && !name.slice(dot + 1).includes(' ') ? name.slice(dot + 1) : '';
  const suffix = extension ? `.${extension}` : '';
  let stem = extension ? name.slice(0, dot) : name;
  // Trailing dots by hand (a dot with no extension after it): /\.+$/ backtracks quadratically on a long run of dots.
  let end = stem.length;
  while (end > 0 && stem[end - 1] === '.') end -= 1;
  stem = stem.slice(0, end).trim();
  const room = MEDIA_FILENAME_MAX - codePoints(suffix).length;
  if (codePoints(stem).length > room) stem = codePoints(stem).slice(0, room).join('').trim();
  return `${stem || MEDIA_FILENAME_FALLBACK}${suffix}`;
}
