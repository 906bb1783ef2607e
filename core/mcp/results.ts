/**
 * How every MCP tool of a11y-gate answers, on stdio and over HTTP alike: its structured result (also as JSON
 * text, for clients that read text only), or a tool error the agent reads; never a crash of the server.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

/** A failure whose message is written for the agent. */
export class ToolError extends Error {}

export function toolResult(structured: Record<string, unknown>): CallToolResult {
  return {
    content: [{ type: 'text', text: JSON.stringify(structured, null, 2) }],
    structuredContent: structured,
  };
}

/** What the agent reads of a failure: the message by default; the service hides its own faults. */
export type ErrorText = (error: unknown) => string;

export const messageOf: ErrorText = (e) => (e instanceof Error ? e.message : String(e));

export async function guarded(
  run: () => Promise<CallToolResult>,
  errorText: ErrorText = messageOf,
): Promise<CallToolResult> {
  try {
    return await run();
  } catch (e) {
    return { isError: true, content: [{ type: 'text', text: errorText(e) }] };
  }
}
