/** The reference resources every a11y-gate MCP server offers: the WCAG criteria and the test procedures. */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { PROCEDURE_DATA } from '../catalog/procedures.data.js';
import { WCAG_CRITERIA } from '../catalog/wcag-criteria.data.js';

export function registerResources(server: McpServer): void {
  const json = (uri: URL, value: unknown) => ({
    contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify(value, null, 2) }],
  });
  server.registerResource(
    'wcag-criteria',
    'a11y-gate://wcag/criteria',
    {
      description: 'The WCAG 2.0-2.2 success criteria: id, title, level, version, W3C link',
      mimeType: 'application/json',
    },
    (uri) => json(uri, WCAG_CRITERIA),
  );
  server.registerResource(
    'test-procedures',
    'a11y-gate://procedures',
    {
      description:
        'How a person tests each WCAG A and AA criterion: what to check, how, with what, what fails',
      mimeType: 'application/json',
    },
    (uri) =>
      json(
        uri,
        PROCEDURE_DATA.map(([criterion, check, how, tools, fails]) => ({
          criterion,
          check,
          how,
          tools,
          fails,
        })),
      ),
  );
}
