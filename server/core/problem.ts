// Sends the one problem body (contract/core/problem.ts) as a response.
import type { ServerResponse } from 'node:http';
import { type ProblemBody, toProblem } from '../../contract/core/problem.ts';
import { setStampedHeaders } from './stamp.ts';

export function sendProblem(res: ServerResponse, err: unknown): ProblemBody {
  const { body, headers } = toProblem(err);
  if (res.headersSent) {
    res.destroy();
    return body;
  }
  const payload = JSON.stringify(body);
  res.statusCode = body.status;
  for (const [k, v] of Object.entries(headers)) res.setHeader(k, v);
  res.setHeader('Content-Type', 'application/problem+json');
  res.setHeader('Content-Length', Buffer.byteLength(payload));
  res.setHeader('Cache-Control', 'no-store');
  setStampedHeaders(res);
  res.end(payload);
  return body;
}
