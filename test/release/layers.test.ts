import { ESLint } from 'eslint';

// The lint rules that keep the kernel shared and the CLI apart from the Action, run as `npm run lint` runs
// them, on an import each rule must refuse (linted as the text of an existing file of that folder). Only that
// rule runs, without the type-aware program the other rules need.
const eslint = new ESLint({
  ruleFilter: ({ ruleId }) => ruleId === 'import-x/no-restricted-paths',
  overrideConfig: { languageOptions: { parserOptions: { projectService: false } } },
});

async function restrictedPathErrors(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return result.messages.filter((m) => m.ruleId === 'import-x/no-restricted-paths').map((m) => m.message);
}

test('the kernel imports nothing outside core/', async () => {
  const code = "import { loadConfig } from '../api/config.js';\nexport const c = loadConfig;\n";
  expect(await restrictedPathErrors('core/impact.ts', code)).toEqual([
    expect.stringContaining('the kernel (core/) imports nothing outside core/'),
  ]);
  const inside = "import { IMPACTS } from './impact.js';\nexport const i = IMPACTS;\n";
  expect(await restrictedPathErrors('core/retry-after.ts', inside)).toEqual([]);
});

test('the CLI imports no module of the Action', async () => {
  const code = "import { run } from '../action/run.js';\nexport const r = run;\n";
  expect(await restrictedPathErrors('cli/progress.ts', code)).toEqual([
    expect.stringContaining('the CLI imports no module of the Action'),
  ]);
});
