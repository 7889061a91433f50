import { parseArgs, type ParseArgsConfig } from 'node:util';

/**
 * What the command-line tools share: flags parsed strictly (an unknown or malformed flag is a
 * usage error that shows the usage), and one way to end: exit 2 with the message for a usage or
 * configuration error, 1 with the stack for anything unexpected.
 */
export class UsageError extends Error {}

export function parseFlags<const Options extends NonNullable<ParseArgsConfig['options']>>(
  args: string[],
  options: Options,
  usage: string,
) {
  try {
    return parseArgs({ args, options, strict: true, allowPositionals: false }).values;
  } catch (error) {
    throw new UsageError(`${(error as Error).message}\n\n${usage}`);
  }
}

export interface KnownFailure {
  message: string;
  exitCode: number;
}

/** Runs a tool's main and exits with its code; `known` names the tool's own expected failures. */
export function runCli(
  main: () => Promise<number>,
  known: (error: unknown) => KnownFailure | undefined = () => undefined,
): void {
  main().then(
    (code) => process.exit(code),
    (error: unknown) => {
      const failure =
        known(error) ??
        (error instanceof UsageError || (error as Error)?.name === 'ConfigError'
          ? { message: (error as Error).message, exitCode: 2 }
          : undefined);
      process.stderr.write(`${failure ? failure.message : ((error as Error)?.stack ?? String(error))}\n`);
      process.exit(failure ? failure.exitCode : 1);
    },
  );
}
