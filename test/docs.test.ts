/**
 * The docs a newcomer reads: a README of one screen per topic (at most ~250 lines) that links
 * to docs/ pages, and links that lead somewhere. A link's anchor is checked against the
 * headings of the page it names, slugged as GitHub slugs them.
 */
import { describe, expect, it } from 'vitest';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';

const ROOT = join(import.meta.dirname, '..');
const pages = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

// GitHub's heading slug: lower case, punctuation but `-` and `_` dropped, spaces to `-`
const slug = (h: string) =>
  h
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}_\- ]/gu, '')
    .replace(/ /g, '-');

function anchors(page: string): Set<string> {
  const text = readFileSync(join(ROOT, page), 'utf8').replace(/```[\s\S]*?```/g, '');
  return new Set([...text.matchAll(/^#+ (.*)$/gm)].map((m) => slug(m[1])));
}

describe('the README is short and points to the docs', () => {
  it('is at most 250 lines', () => {
    expect(readFileSync(join(ROOT, 'README.md'), 'utf8').split('\n').length).toBeLessThanOrEqual(250);
  });

  it('links every page of docs/', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    for (const p of pages.filter((p) => p !== 'README.md')) expect(readme, p).toContain(`(${p}`);
  });

  it('carries no tracker numbers or dated lab notes', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    expect(readme).not.toMatch(/issue #?\d+|\(#\d+\)/i);
    expect(readme).not.toMatch(/\b20\d\d-\d\d-\d\d\b/);
  });
});

describe('every relative link leads to a file and heading that exist', () => {
  for (const page of pages) {
    it(page, () => {
      const text = readFileSync(join(ROOT, page), 'utf8').replace(/```[\s\S]*?```/g, '');
      const broken: string[] = [];
      for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^[a-z]+:/i.test(target)) continue;
        const [path, anchor] = target.split('#');
        const file = path ? normalize(join(dirname(page), path)) : page;
        if (!existsSync(join(ROOT, file))) broken.push(`${target}: no file ${file}`);
        else if (anchor && file.endsWith('.md') && !anchors(file).has(anchor)) broken.push(`${target}: no heading #${anchor} in ${file}`);
      }
      expect(broken).toEqual([]);
    });
  }
});
