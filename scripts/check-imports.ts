// The dependency rule (DESIGN.md): web/api/launch → domain → db. Fails `npm run lint` when
// domain/ imports React, the router, HTTP or an adapter, or when web/ or api/ import db/.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

type Rule = { folder: string; forbidden: RegExp; why: string };

const RULES: Rule[] = [
  {
    folder: 'domain',
    forbidden:
      /^(react|react-dom|react-router|@react-router\/.*|@radix-ui\/.*|node:http|zod|#web\/.*|#api\/.*|#server\/.*)(\/|$)/,
    why: 'domain/ holds plain rules and services: no React, router, HTTP, zod or adapters',
  },
  {
    folder: 'web',
    forbidden: /^#db\//,
    why: 'web/ calls domain services; it never queries the database',
  },
  {
    folder: 'api',
    forbidden: /^#db\//,
    why: 'api/ calls domain services; it never queries the database',
  },
];

const importPattern =
  /(?:^|\n)\s*(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

function filesUnder(dir: string): string[] {
  if (!statSync(dir, { throwIfNoEntry: false })) return [];
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return filesUnder(full);
    return /\.(ts|tsx)$/.test(name) ? [full] : [];
  });
}

const problems: string[] = [];
for (const rule of RULES) {
  for (const file of filesUnder(rule.folder)) {
    const source = readFileSync(file, 'utf8');
    for (const match of source.matchAll(importPattern)) {
      const specifier = match[1] ?? match[2] ?? '';
      if (rule.forbidden.test(specifier))
        problems.push(`${file}: imports '${specifier}' (${rule.why})`);
    }
  }
}

if (problems.length > 0) {
  console.error(problems.join('\n'));
  process.exit(1);
}
console.log('import rules: ok');
