/** The routes that change state, with the method each answers, as a client spells them plainly. */
export const WRITE_ROUTES = [
  { method: 'POST', path: '/api/v2/silences' },
  { method: 'DELETE', path: '/api/v2/silence/00000000-0000-4000-8000-000000000000' },
  { method: 'POST', path: '/-/reload' },
] as const;

export type WriteRoute = (typeof WRITE_ROUTES)[number];

const hex = (char: string, upper: boolean) => {
  const code = `%${char.charCodeAt(0).toString(16).padStart(2, '0')}`;
  return upper ? code.toUpperCase() : code;
};

/**
 * Other spellings of `path` a router, proxy or guard may read as the same route, or not: percent-
 * encoded letters (one, all, lower- and upper-case hex), double-encoded, mixed case, encoded and
 * doubled slashes, dot segments, a trailing slash, `;` parameters. Each is sent as is, never normalized.
 */
export function spellingsOf(path: string): string[] {
  const segments = path.split('/');
  const lastWord = segments.findIndex((segment) => /^[a-z]{4,}$/.test(segment));
  const word = segments[lastWord];
  const withWord = (spelled: string) => segments.map((segment, index) => (index === lastWord ? spelled : segment)).join('/');
  const spellings = [
    withWord(hex(word[0], false) + word.slice(1)),
    withWord(hex(word[0], true) + word.slice(1)),
    withWord([...word].map((char) => hex(char, true)).join('')),
    withWord([...word].map((char) => hex(char, false)).join('')),
    withWord(`%25${hex(word[0], false).slice(1)}${word.slice(1)}`),
    withWord(`%2525${hex(word[0], false).slice(1)}${word.slice(1)}`),
    withWord(word[0].toUpperCase() + word.slice(1)),
    path.toUpperCase(),
    path.replace(/\//g, '%2F').replace(/^%2F/, '/'),
    path.replace(/\//g, '%2f').replace(/^%2f/, '/'),
    `/${path}`,
    path.replace(/\/([^/]*)$/, '//$1'),
    `${path}/`,
    `${path};x=1`,
    `${path}%00`,
    `${path}%20`,
    path.replace(/\/([^/]*)$/, '/./$1'),
    path.replace(/\/([^/]*)$/, '/%2e/$1'),
    path.replace(/\/([^/]*)$/, '/x/../$1'),
    path.replace(/\/([^/]*)$/, '/x/%2e%2e/$1'),
    `${path}?x=1`,
    `${path}#x`,
  ];
  return [...new Set(spellings)].filter((spelling) => spelling !== path);
}
