/** A setting (an environment variable) the server cannot use: start-up stops with its message, no stack. */
export class ConfigError extends Error {}
