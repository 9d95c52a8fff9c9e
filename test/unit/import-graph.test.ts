import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import {
  folderGraph,
  importCycles,
  LAYERS,
  layerViolations,
  readImportGraph,
  readLayers,
} from '../../scripts/lint/import-graph';

/** Writes a small src/ tree of the given files into a temporary folder and reads its import graph. */
function graphOf(files: Record<string, string>) {
  const root = mkdtempSync(join(tmpdir(), 'import-graph-'));
  try {
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(root, path)), { recursive: true });
      writeFileSync(join(root, path), text);
    }
    return readImportGraph(
      root,
      Object.keys(files).map((path) => join(root, path)),
    );
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

describe('the import graph check', () => {
  test('passes imports that go down the layers', () => {
    const graph = graphOf({
      'operations/a.ts': "import { b } from '../store/b';\nexport const a = b;\n",
      'store/b.ts': "import type { C } from '../contract/c';\nexport const b: C = 1;\n",
      'contract/c.ts': 'export type C = number;\n',
    });
    expect(layerViolations(graph)).toEqual([]);
    expect(importCycles(graph)).toEqual([]);
  });

  test('reports an import up the layers, a type-only one too', () => {
    const graph = graphOf({
      'notifications/n.ts':
        "import type { OperationContext } from '../operations/o';\nexport type N = OperationContext;\n",
      'operations/o.ts': 'export interface OperationContext { readonly today: string }\n',
    });
    expect(layerViolations(graph)).toEqual([
      'notifications/n.ts (domain) imports operations/o.ts (operations), a layer above it',
    ]);
  });

  test('reports a cycle made of type-only imports, and a dynamic import up the layers', () => {
    const graph = graphOf({
      'delivery/x.ts':
        "import type { Y } from './y';\nexport type X = Y | 1;\nexport const load = () => import('../service');\n",
      'delivery/y.ts': "import type { X } from './x';\nexport type Y = X | 2;\n",
      'service.ts': 'export const service = 1;\n',
    });
    expect(importCycles(graph)).toEqual([['delivery/x.ts', 'delivery/y.ts']]);
    expect(layerViolations(graph)).toEqual(['delivery/x.ts (domain) imports service.ts (entry), a layer above it']);
  });

  test('reports a file in no layer', () => {
    expect(layerViolations(graphOf({ 'stray.ts': 'export const stray = 1;\n' }))).toEqual([
      'stray.ts belongs to no layer (see the table of layers in docs/architecture.md)',
    ]);
  });

  test('reports two folders that import each other, though their files make no cycle', () => {
    const graph = graphOf({
      'delivery/worker.ts': "import { prune } from '../notifications/limits';\nexport const w = prune;\n",
      'notifications/limits.ts': 'export const prune = 1;\n',
      'notifications/marks.ts': "import { w } from '../delivery/outbox';\nexport const m = w;\n",
      'delivery/outbox.ts': 'export const w = 2;\n',
    });
    expect(importCycles(graph)).toEqual([]);
    expect(importCycles(folderGraph(graph))).toEqual([['delivery', 'notifications']]);
  });

  test('reads the layers from the table in docs/architecture.md, top down', () => {
    expect(LAYERS.map((layer) => layer.name)).toEqual([
      'entry',
      'bindings',
      'pipeline',
      'operations',
      'domain',
      'store',
      'foundation',
    ]);
    const table =
      '## Layers\n\n| Layer | Folders | What |\n|---|---|---|\n| top | `a/`, `b.ts` | x |\n| low | `c/` | y |\n';
    expect(readLayers(table)).toEqual([
      { name: 'top', members: ['a/', 'b.ts'] },
      { name: 'low', members: ['c/'] },
    ]);
  });
});
