import { markLocation, parsePathLine } from '../../../scanner/locate/attributes.js';

// The attribute forms as each plugin writes them (their sources: code-inspector-plugin's
// `path:line:column:tag`, vite-plugin-vue-inspector's encodeURI(relative path):line:column, react-dev-inspector's
// three attributes, Svelte's __svelte_meta.loc).

describe('reading dev-build attributes', () => {
  test('code-inspector-plugin: absolute path, line, column and the tag', () => {
    expect(markLocation({ kind: 'text', value: 'data-insp-path=/repo/src/App.jsx:12:7:img' })).toEqual({
      path: '/repo/src/App.jsx',
      line: 12,
      column: 7,
    });
    // A Windows path's drive colon stays part of the path.
    expect(markLocation({ kind: 'text', value: 'data-insp-path=C:/repo/src/A.tsx:3:5:div' })).toEqual({
      path: 'C:/repo/src/A.tsx',
      line: 3,
      column: 5,
    });
  });

  test('vite-plugin-vue-inspector: a URI-encoded relative path', () => {
    expect(
      markLocation({ kind: 'text', value: 'data-v-inspector=src/components/Hero%20Card.vue:4:5' }),
    ).toEqual({ path: 'src/components/Hero Card.vue', line: 4, column: 5 });
    expect(markLocation({ kind: 'text', value: 'data-v-inspector=src/%E0%A4%A.vue:4:5' })).toBeNull();
  });

  test('react-dev-inspector, Svelte 4 and 5, a custom attribute without a column', () => {
    expect(markLocation({ kind: 'parts', path: 'src/Nav.tsx', line: '9', column: '3' })).toEqual({
      path: 'src/Nav.tsx',
      line: 9,
      column: 3,
    });
    expect(markLocation({ kind: 'parts', path: 'src/Nav.tsx', line: 'x', column: '3' })).toBeNull();
    expect(
      markLocation({ kind: 'svelte', file: 'src/App.svelte', line: 4, column: 0, zeroBased: true }),
    ).toEqual({ path: 'src/App.svelte', line: 5, column: 1 });
    expect(
      markLocation({ kind: 'svelte', file: 'src/App.svelte', line: 4, column: 2, zeroBased: false }),
    ).toEqual({ path: 'src/App.svelte', line: 4, column: 3 });
    expect(markLocation({ kind: 'text', value: 'data-src=app/views/home.html.erb:27' })).toEqual({
      path: 'app/views/home.html.erb',
      line: 27,
      column: null,
    });
  });

  test('no line, line 0 or garbage: no location', () => {
    for (const bad of ['src/App.jsx', 'src/App.jsx:0:1', ':12:3', 'src/App.jsx:-1']) {
      expect(parsePathLine(bad)).toBeNull();
    }
    expect(markLocation(null)).toBeNull();
  });
});
