import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

function markdownFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) return markdownFiles(file);
    return name.endsWith('.md') ? [file] : [];
  });
}

/** GitHub's heading anchors: lower case, punctuation but underscores and dashes dropped, spaces as dashes. */
function anchorsOf(file: string): Set<string> {
  const anchors = new Set<string>();
  let fenced = false;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (line.startsWith('```')) fenced = !fenced;
    if (fenced || !line.startsWith('#')) continue;
    const title = line.replace(/^#+\s*/, '').toLowerCase();
    anchors.add(title.replace(/[^a-z0-9 _-]/g, '').replace(/ /g, '-'));
  }
  return anchors;
}

/** The relative links of a Markdown file, outside code blocks (a link's text may span lines). */
function linksOf(file: string): string[] {
  const text = readFileSync(file, 'utf8').replace(/```[\s\S]*?```/g, '');
  return [...text.matchAll(/\]\(([^)\s]+)\)/g)]
    .map((match) => match[1] as string)
    .filter((target) => !/^[a-z]+:/.test(target));
}

const pages = [
  'README.md',
  'CHANGELOG.md',
  'RELIABILITY.md',
  ...markdownFiles('docs'),
  ...markdownFiles('data/ranker'),
];

describe('the documents', () => {
  it('README.md stays short and points to nothing outside the repository', () => {
    const lines = readFileSync('README.md', 'utf8').trimEnd().split('\n');
    expect(lines.length).toBeLessThanOrEqual(200);
    expect(lines.filter((line) => line.length > 200)).toEqual([]);
    for (const target of linksOf('README.md')) expect(path.normalize(target).startsWith('..'), target).toBe(false);
    expect(readFileSync('README.md', 'utf8')).not.toMatch(/\.\.\/shared\//);
  });

  it('every relative link of the README and docs/ reaches a file and a heading that exist', () => {
    const broken: string[] = [];
    for (const page of pages) {
      for (const target of linksOf(page)) {
        const [file, anchor] = target.split('#') as [string, string | undefined];
        const resolved = file ? path.normalize(path.join(path.dirname(page), file)) : page;
        if (!existsSync(resolved)) {
          broken.push(`${page}: ${target} (no such file)`);
          continue;
        }
        if (anchor && resolved.endsWith('.md') && !anchorsOf(resolved).has(anchor))
          broken.push(`${page}: ${target} (no such heading)`);
      }
    }
    expect(broken).toEqual([]);
  });
});
