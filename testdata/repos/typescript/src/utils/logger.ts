export interface Logger {
  info(msg: string): void;
  error(msg: string, err?: Error): void;
}

class ConsoleLogger implements Logger {
  constructor(private prefix: string) {}

  info(msg: string): void {
    console.log(`[${this.prefix}] ${msg}`);
  }

  error(msg: string, err?: Error): void {
    console.error(`[${this.prefix}] ${msg}`, err);
  }
}

/** createLogger returns a logger whose lines start with prefix. */
export function createLogger(prefix = 'app'): Logger {
  return new ConsoleLogger(prefix);
}
