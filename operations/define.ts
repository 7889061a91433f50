import { z } from 'zod';

/**
 * The shape of one operation of the service. Each operation is written once, as plain data,
 * in a file of its own under operations/; REST validation, OpenAPI, the MCP tools, the MCP
 * search index and llms.txt are all derived from these definitions.
 */

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

export type OperationCategory = 'search' | 'audience' | 'enrichment' | 'contact' | 'account';

/** When credits leave the balance. `upfront` is charged at the call, for work done later. */
export type ChargeTiming = 'free' | 'now' | 'later' | 'upfront';

/** Buckets of the per-key rate limit; the limit of each is configurable. */
export type RateLimitClass = 'search' | 'standard' | 'status' | 'heavy';

export interface CreditRule<Input> {
  /** Name of the metered unit, as the ledger records it (e.g. `getCompanyFromDb`). */
  unit: string;
  charged: ChargeTiming;
  /** The rule in words, for people and agents. */
  rule: string;
  /**
   * The most this call can charge, computed from the request alone. `null` when it cannot
   * be known before the call (the gateway then asks for the estimate operation instead).
   */
  worstCase: (input: Input) => number | null;
  /**
   * For a call that sets up spending on a schedule (a saved search that runs daily or weekly):
   * the most that schedule can charge in a month (31 days), from the request alone. Whether a
   * call needs the user's confirmation is decided on this as well as on worstCase: a schedule
   * that spends a little each day spends a lot in a month.
   */
  monthlyWorstCase?: (input: Input) => number;
  /**
   * Work charged later to the API key that set it going (a watch list's checks, to the key the list was created with), so
   * that a capped key's cap holds for it: a capped key may call it, where other work charged later is refused.
   */
  heldToCreatingKey?: true;
  /** A worked example of the rule. */
  example: string;
  /**
   * For a call whose worst case the payload cannot tell but a free read can (a build: the caps of
   * its audience's stored filters): that operation, called with the fields of this call it takes,
   * and the worst case from its output. The worst case is then a ceiling the caller set, charged
   * later only for what is found, so it is stated to the user but no reason to refuse the call.
   */
  pricedBy?: {
    operationId: string;
    worstCase: (output: Record<string, unknown>) => number | null;
    /** What the call would cost with today's data, when the free read can tell (a build counted, not run). */
    expected?: (output: Record<string, unknown>) => number | null;
  };
}

export interface WorkflowPosition {
  /** Operations a caller usually runs before this one. */
  before: string[];
  /** Operations a caller usually runs next. */
  after: string[];
}

/** Where a background job stands, as its status operation reports it. */
export interface JobProgress {
  state: 'running' | 'done' | 'failed';
  /** One line for people and agents: progress while running, the reason when failed. */
  message: string;
}

/**
 * For an operation that starts a background job: the status operation that follows the job, and
 * that operation's input from this call's input and output. MCP tasks, among others, follow it.
 */
export interface StartsJob<Input, Output> {
  statusOperationId: string;
  statusInput: (input: Input, output: Output) => Record<string, unknown>;
}

export interface OperationDefinition<Input extends z.ZodObject = z.ZodObject, Output extends z.ZodType = z.ZodType> {
  operationId: string;
  title: string;
  /** One line: what the operation does. */
  summary: string;
  /** Written for an agent deciding whether and how to call it. */
  description: string;
  category: OperationCategory;
  /** Words and synonyms people use for this operation; feed the MCP search index. */
  keywords: string[];
  method: HttpMethod;
  /** OpenAPI-style path with `{param}` placeholders; each placeholder is a field of `input`. */
  path: string;
  /** Other paths that answer the same operation (the spec lists some twice). */
  aliasPaths?: string[];
  /** The request without `apiKey` (authentication is added by the transport). */
  input: Input;
  /** The `output` object of the success envelope. */
  output: Output;
  credits: CreditRule<z.infer<Input>>;
  rateLimitClass: RateLimitClass;
  readOnly: boolean;
  /** True when the call deletes or overwrites something the caller cannot get back. */
  destructive: boolean;
  /** True when repeating the same call has no further effect (and charges nothing more). */
  idempotent: boolean;
  /** True when the call reaches outside services (the professional network, contact providers). */
  openWorld: boolean;
  /** `always`: a person must confirm each call; `above-threshold`: when the worst case exceeds the configured credits. */
  confirmation: 'always' | 'above-threshold';
  /** For status operations: how often to poll, in seconds. */
  pollIntervalSeconds?: number;
  /** For an operation that starts a background job: the status call that follows it. */
  startsJob?: StartsJob<z.infer<Input>, z.infer<Output>>;
  /** For a status operation: where the job stands, read from its output. */
  jobState?: (output: z.infer<Output>) => JobProgress;
  example: z.input<Input>;
  workflow: WorkflowPosition;
}

// Operations of different inputs live in one list; the handler side recovers the types.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyOperation = OperationDefinition<any, any>;

export function defineOperation<Input extends z.ZodObject, Output extends z.ZodType>(
  definition: OperationDefinition<Input, Output>,
): OperationDefinition<Input, Output> {
  for (const name of pathParameters(definition.path)) {
    if (!(name in definition.input.shape)) {
      throw new Error(`${definition.operationId}: path parameter {${name}} is not a field of its input`);
    }
  }
  const example = definition.input.safeParse(definition.example);
  if (!example.success) {
    throw new Error(`${definition.operationId}: its example does not match its input: ${example.error.message}`);
  }
  return definition;
}

export function pathParameters(path: string): string[] {
  return [...path.matchAll(/\{(\w+)\}/g)].map((match) => match[1] as string);
}

/** The `chargeInfo.method` reported for a timing. */
export function chargeMethodOf(timing: ChargeTiming): 'free' | 'charged-now' | 'charging-later' {
  if (timing === 'free') return 'free';
  return timing === 'later' ? 'charging-later' : 'charged-now';
}

export const free = <Input>(example = 'Free: nothing is charged.'): CreditRule<Input> => ({
  unit: 'none',
  charged: 'free',
  rule: 'Free.',
  worstCase: () => 0,
  example,
});

/**
 * What deleting one of the account's resources by the id in its path shares: DELETE, free,
 * destructive and not repeatable (the second call finds nothing), confirmed above the threshold,
 * answering the id with `deleted: true`. Each operation keeps its own words and workflow.
 */
export function deleteById<Id extends string, IdSchema extends z.ZodType>(path: `/${string}/{${Id}}`, id: IdSchema) {
  const name = pathParameters(path)[0] as Id;
  return {
    method: 'DELETE' as const,
    path,
    input: z.strictObject({ [name]: id } as Record<Id, IdSchema>),
    output: z.object({ [name]: z.string(), deleted: z.literal(true) } as Record<Id, z.ZodString> & {
      deleted: z.ZodLiteral<true>;
    }),
    credits: free(),
    rateLimitClass: 'standard' as const,
    readOnly: false,
    destructive: true,
    idempotent: false,
    openWorld: false,
    confirmation: 'above-threshold' as const,
    example: { [name]: '1' } as Record<Id, string>,
  };
}
