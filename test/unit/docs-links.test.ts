/**
 * Every relative link in README.md and docs/ resolves: the file exists and a `#fragment` names a
 * heading in it (GitHub's anchor rules), so moving or renaming a doc cannot leave dead links.
 */
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

function markdownFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return markdownFiles(path);
    return name.endsWith('.md') ? [path] : [];
  });
}

/** The text outside fenced code blocks, where Markdown links are links. */
function prose(text: string): string {
  return text.replace(/^```[\s\S]*?^```/gm, '');
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens. */
function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

function anchorsOf(path: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const match of prose(readFileSync(path, 'utf8')).matchAll(/^#{1,6} +(.+)$/gm)) {
    const base = anchorOf(match[1]!);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    anchors.add(n === 0 ? base : `${base}-${n}`);
  }
  return anchors;
}

/** `file#fragment` targets of a Markdown file's relative links that do not resolve. */
function deadLinks(path: string): string[] {
  const dead: string[] = [];
  for (const match of prose(readFileSync(path, 'utf8')).matchAll(/\]\(([^)\s]+)\)/g)) {
    const target = match[1]!;
    if (/^[a-z]+:/i.test(target)) continue;
    const [file, fragment] = target.split('#') as [string, string | undefined];
    const resolved = file === '' ? path : resolve(dirname(path), file);
    if (!existsSync(resolved)) {
      dead.push(`${target} (no such file)`);
    } else if (fragment !== undefined && resolved.endsWith('.md') && !anchorsOf(resolved).has(fragment)) {
      dead.push(`${target} (no such heading)`);
    }
  }
  return dead;
}

describe('documentation links', () => {
  it('makes anchors as GitHub does', () => {
    expect(anchorOf('Accounts held by the node (personal_)')).toBe('accounts-held-by-the-node-personal_');
    expect(anchorOf("What RSK's EVM does differently")).toBe('what-rsks-evm-does-differently');
    expect(anchorOf('ethers: `nonce has already been used … code=NONCE_EXPIRED`')).toBe('ethers-nonce-has-already-been-used--codenonce_expired');
  });

  const files = [join(ROOT, 'README.md'), ...markdownFiles(join(ROOT, 'docs'))];
  for (const file of files) {
    it(`${relative(ROOT, file)}: every relative link resolves`, () => {
      expect(deadLinks(file)).toEqual([]);
    });
  }
});
