import type { McpServer } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { audienceWorkflow, catalog, zodToolSchema, type CatalogEntry } from './catalog.js';

/** The prompts of every MCP surface: the audience workflow, step by step, from the registry. */

const workflowPromptArgs = z.object({
  goal: z.string().optional().describe('What the audience is for, e.g. "VPs of Sales at US fintech startups".'),
});
const workflowPromptSchema = zodToolSchema(workflowPromptArgs);

/** Operations of the registry among these ids, in this order. */
function present(ids: readonly string[]): CatalogEntry[] {
  return ids.map((id) => catalog.get(id)).filter((entry): entry is CatalogEntry => entry !== undefined);
}

/** Count before spending, exclude before building: said with the operations the registry has. */
function beforeBuilding(): string[] {
  const lines: string[] = [];
  const counts = present(['companyCount', 'peopleCount']);
  if (counts.length) {
    const names = counts.map((entry) => entry.operation.operationId).join(' or ');
    lines.push(
      `Count before spending: ${names} (${counts[0]?.operation.credits.rule.replace(/\.$/, '')}) with the filters you mean to use tells how many records ` +
        'a build would pay for; narrow the filters when that is more than the user wants.',
    );
  }
  const exclusions = present(['listExclusionLists', 'createExclusionList', 'createExclusionListFromAudience']);
  if (exclusions.length) {
    lines.push(
      'Exclusion lists before building: leave out what the user already has (CRM accounts, customers, people already contacted) with an exclusion list ' +
        `(${exclusions.map((entry) => entry.operation.operationId).join(', ')}), given in companyExclusionListIDs / prospectExclusionListIDs at step 2.`,
    );
  }
  return lines;
}

export function audienceWorkflowText(goal: string | undefined): string {
  const steps = audienceWorkflow.map((ids, index) => {
    const described = ids.map((id) => {
      const entry = catalog.get(id) as CatalogEntry;
      const poll = entry.operation.pollIntervalSeconds
        ? ` Poll every ${entry.operation.pollIntervalSeconds} s, never faster.`
        : '';
      return `${id} (${entry.operation.method} ${entry.operation.path}): ${entry.operation.summary} Credits: ${entry.operation.credits.rule}${poll}`;
    });
    return `${index + 1}. ${described.join('\n   or ')}`;
  });
  return [
    `Build a prospect audience${goal ? ` for: ${goal}` : ''}, with the tools search_endpoints, get_endpoint_details_full and call_operation.`,
    'First read the credit balance (getCreditBalance).',
    ...beforeBuilding(),
    'Then follow these steps in order; calling a step in the wrong audience state is refused with 400:',
    ...steps,
    'Before step 6: show the user the estimate of step 5 (credits and time) and get their explicit confirmation; the gateway will also ask for it. ' +
      'If the user declines, stop: nothing is charged. To lower the cost, lower maxProspectsToEnrich or switch enrichment types off and estimate again.',
    'If a build ends FAILED, or the filters must change after a build, create a new audience. Use exactly the same values in the trigger as in the estimate.',
  ].join('\n');
}

/** Counted against the account's per-minute limit like every answer that reaches no operation (limits.ts). */
export function registerPrompts(server: McpServer, countOne: () => Promise<void> = async () => undefined): void {
  server.registerPrompt(
    'audience_workflow',
    {
      title: 'Build, enrich and export an audience',
      description:
        'Walks through the audience workflow: count, exclude, create, filters, build, poll, estimate, confirm, enrich, export.',
      argsSchema: workflowPromptSchema,
    },
    async (args) => {
      await countOne();
      return {
        messages: [
          {
            role: 'user',
            content: { type: 'text', text: audienceWorkflowText((args as z.output<typeof workflowPromptArgs>).goal) },
          },
        ],
      };
    },
  );
}
