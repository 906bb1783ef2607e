import { jest } from '@jest/globals';

/** A call the Action made to the toolkit: its function's name and arguments. */
export interface CoreCall {
  fn: string;
  args: unknown[];
}

/**
 * `@actions/core` as the Action's tests see it: the inputs a test sets, every call recorded, the job summary
 * kept as text. Call it before the dynamic import of the code under test (ESM mocks precede the import).
 */
export function mockActionsCore(): { calls: CoreCall[]; inputs: Record<string, string>; summary: string } {
  const state = { calls: [] as CoreCall[], inputs: {} as Record<string, string>, summary: '' };
  const record =
    (fn: string) =>
    (...args: unknown[]) => {
      state.calls.push({ fn, args });
    };
  const summary = {
    addRaw(text: string) {
      state.summary += text;
      return summary;
    },
    write() {
      return Promise.resolve(summary);
    },
  };
  jest.unstable_mockModule('@actions/core', () => ({
    getInput: (name: string) => state.inputs[name] ?? '',
    setSecret: record('setSecret'),
    setOutput: record('setOutput'),
    setFailed: record('setFailed'),
    error: record('error'),
    warning: record('warning'),
    notice: record('notice'),
    info: record('info'),
    debug: () => undefined,
    isDebug: () => false,
    summary,
  }));
  return state;
}
