/**
 * `npm run lint` step: fails on any import circle among the project's own modules, type-only imports
 * included. ESLint's `import-x/no-cycle` skips `import type`, which erases at compile time but still ties two
 * modules' designs together; this check counts every import, export-from and dynamic import.
 */
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const ROOTS = ['core', 'api', 'app', 'server', 'client', 'action', 'scanner', 'cli'];

function sourceFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

/** The project files one file imports, by relative specifier (`./x.js` names `./x.ts`). */
function importsOf(file: string, known: Set<string>): string[] {
  const info = ts.preProcessFile(fs.readFileSync(file, 'utf8'), true, true);
  return info.importedFiles
    .map((ref) => ref.fileName)
    .filter((spec) => spec.startsWith('.'))
    .map((spec) => path.normalize(path.join(path.dirname(file), spec.replace(/\.js$/, '.ts'))))
    .filter((target) => known.has(target));
}

/** Tarjan's strongly connected components; every component of two or more files is a circle. */
export function findCycles(graph: Map<string, string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, counter);
    low.set(node, counter++);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node)!, index.get(next)!));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    const selfImport = (graph.get(node) ?? []).includes(node);
    if (component.length > 1 || selfImport) cycles.push(component.sort());
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return cycles;
}

function main(): void {
  const files = ROOTS.flatMap(sourceFiles).map((f) => path.normalize(f));
  const known = new Set(files);
  const graph = new Map(files.map((f) => [f, importsOf(f, known)]));
  const cycles = findCycles(graph);
  for (const cycle of cycles) {
    process.stderr.write(`import circle (type-only imports count): ${cycle.join(' <-> ')}\n`);
  }
  if (cycles.length > 0) process.exit(1);
  process.stdout.write(`import circles: none among ${files.length} modules\n`);
}

main();
