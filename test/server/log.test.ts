import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { toLogText } from '../../server/core/log.ts';

describe('request log lines', () => {
  const line = { method: 'GET', path: '/api/v1/facility/ONF-000001', status: 200, ms: 0.12, service: 'facilities' };

  it('is the line pino writes for the same record, key for key', async () => {
    const written: string[] = [];
    const logger = pino(
      { base: null, timestamp: () => ',"time":1764201600000' },
      { write: (s: string) => written.push(s) },
    );
    logger.info(line);
    expect(toLogText(line, 1764201600000)).toBe(written[0]);
  });

  it.each(['/search?q="x"', '/a\\b', '/caf\u00e9', '/tab\there', '/\u2028'])(
    'writes valid JSON for the path %j',
    (path) => {
      const text = toLogText({ ...line, path }, 1);
      expect(text.endsWith('\n')).toBe(true);
      expect(text.slice(0, -1)).not.toContain('\n');
      expect(JSON.parse(text)).toEqual({ level: 30, time: 1, ...line, path });
    },
  );
});
