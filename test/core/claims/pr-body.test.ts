import { claimsFromDescription, MAX_CLAIMS } from '../../../core/claims/pr-body.js';

const A = 'a'.repeat(64);
const B = 'b'.repeat(64);

describe('claimsFromDescription', () => {
  test('reads the documented lines, fingerprints only, each once, with the provenance lines', () => {
    const body = [
      'Fixes the hero image and the contrast.',
      '',
      `a11y-gate fixes: ${A}, ${B.toUpperCase()} ${A} not-a-fingerprint ${'c'.repeat(63)}`,
      'a11y-gate agent: claude-code',
      'A11y-Gate model: claude-sonnet-4',
      'a11y-gate session: https://agents.example/s/42',
    ].join('\r\n');
    const provenance = {
      agent: 'claude-code',
      model: 'claude-sonnet-4',
      session_url: 'https://agents.example/s/42',
    };
    expect(claimsFromDescription(body)).toEqual([
      { fingerprint: A, provenance },
      { fingerprint: B, provenance },
    ]);
  });

  test('text elsewhere on a line, markup in a name and a session that is not https are not read', () => {
    const body = [
      `Please ignore: a11y-gate fixes: ${A}`,
      `- a11y-gate fixes: ${B}`,
      'a11y-gate agent: <img src=x onerror=alert(1)>',
      'a11y-gate session: javascript:alert(1)',
    ].join('\n');
    expect(claimsFromDescription(body)).toEqual([{ fingerprint: B, provenance: null }]);
    expect(claimsFromDescription(null)).toEqual([]);
  });

  test('at most MAX_CLAIMS', () => {
    const many = Array.from({ length: 150 }, (_, i) => i.toString(16).padStart(64, '0'));
    expect(claimsFromDescription(`a11y-gate fixes: ${many.join(',')}`)).toHaveLength(MAX_CLAIMS);
  });
});
