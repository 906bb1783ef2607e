import { z } from '../zod.js';

export const AgentFixSchema = z
  .object({
    fingerprint: z.string(),
    rule: z.string(),
    page_url: z.string().nullable(),
    agent: z.string().nullable(),
    model: z.string().nullable(),
    session_url: z.string().nullable(),
    accepted_by: z.string().openapi({ description: 'The person who accepted the new text, by name.' }),
    accepted_at: z.string(),
    deploy_id: z.string().openapi({ description: 'The deploy event whose claim it was.' }),
  })
  .openapi('VpatAgentFix', {
    description:
      'A claimed fix of one of the row’s rules that an agent (or a model) made and a person accepted, by the ' +
      'scan’s time, whose issue the scan no longer holds (docs/agents.md, "In the report").',
  });
