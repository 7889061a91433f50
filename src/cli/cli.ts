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
    return parseArgs({ args: withDashedValues(args, options), strict: true, allowPositionals: false, options }).values;
  } catch (error) {
    throw new UsageError(`${(error as Error).message}\n\n${usage}`);
  }
}

/**
 * Identifiers the service generates (OAuth client and grant ids) may begin with a dash, and
 * parseArgs reads `--client -abc` as a missing value. A value after a string flag is taken as
 * that flag's value unless it is itself one of the tool's flags, so a forgotten value still
 * fails with the usage.
 */
function withDashedValues(args: string[], options: NonNullable<ParseArgsConfig['options']>): string[] {
  const isFlag = (arg: string) => arg.startsWith('--') && Object.hasOwn(options, arg.slice(2).split('=')[0] as string);
  const joined: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    const next = args[i + 1];
    const name = arg.startsWith('--') ? arg.slice(2) : '';
    if (options[name]?.type === 'string' && next?.startsWith('-') && !isFlag(next)) {
      joined.push(`${arg}=${next}`);
      i++;
    } else joined.push(arg);
  }
  return joined;
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
