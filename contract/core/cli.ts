// Conventions shared by the command-line entry points: errors carry an exit code, `--help` prints usage.
import { parseArgs, type ParseArgsConfig } from 'node:util';

export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode = 2,
  ) {
    super(message);
    this.name = 'CliError';
  }
}

type Options = NonNullable<ParseArgsConfig['options']>;

/**
 * Parses `argv` against `options` (plus `--help`). A repeated option and more than `maxPositionals` bare
 * arguments are errors: a stray word (`--service carriers extra`, `--input a b`) would otherwise be
 * ignored without a word.
 */
export function parseCli<O extends Options>(argv: string[], options: O, usage: string, maxPositionals = 0) {
  const parsed = (() => {
    try {
      return parseArgs({
        args: argv,
        options: { ...options, help: { type: 'boolean', short: 'h' } },
        allowPositionals: true,
        strict: true,
        tokens: true,
      });
    } catch (err) {
      throw new CliError(`${(err as Error).message}\n\n${usage}`);
    }
  })();
  // parseArgs keeps the last of a repeated option: `--plan free --plan premium` would quietly be premium.
  const seen = new Set<string>();
  for (const token of parsed.tokens) {
    if (token.kind !== 'option' || options[token.name]?.multiple) continue;
    if (seen.has(token.name)) throw new CliError(`--${token.name} was given more than once\n\n${usage}`);
    seen.add(token.name);
  }
  const stray = parsed.positionals.slice(maxPositionals);
  if (stray.length > 0)
    throw new CliError(
      `unexpected argument${stray.length > 1 ? 's' : ''} ${stray.map((a) => JSON.stringify(a)).join(' ')}\n\n${usage}`,
    );
  return { values: parsed.values, positionals: parsed.positionals, usage };
}

/** `--year`, the facilities comparison year: four digits from 2004 (the GHGRP's first year) to 2100. */
export function yearOption(raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const year = Number(raw);
  if (!(/^\d{4}$/.test(raw) && year >= 2004 && year <= 2100))
    throw new CliError(`--year must be a year from 2004 to 2100, not ${raw}`);
  return year;
}

/** A setting's value from `read`, whose error (a bad environment value) becomes the CLI's usage error (exit 2). */
export function settingOption<T>(read: () => T): T {
  try {
    return read();
  } catch (err) {
    throw new CliError((err as Error).message);
  }
}

/** Runs a CLI main function, printing a CliError's message (not its stack) and exiting with its code. */
export async function runCli(main: () => Promise<void>): Promise<void> {
  try {
    await main();
  } catch (err) {
    if (err instanceof CliError) {
      process.stderr.write(`${err.message}\n`);
      process.exitCode = err.exitCode;
    } else {
      process.stderr.write(`error: ${(err as Error).stack ?? String(err)}\n`);
      process.exitCode = 1;
    }
  }
}

/** True when the module is the process's entry point (so a CLI file is also importable). */
export function isMain(importMetaUrl: string): boolean {
  const entry = process.argv[1];
  if (!entry) return false;
  const here = new URL(importMetaUrl).pathname;
  return here === entry || here.replace(/\.ts$/, '') === entry.replace(/\.ts$/, '');
}
