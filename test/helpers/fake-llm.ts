// A fake OpenAI-compatible chat completions backend on 127.0.0.1 for the explain tests: it records every
// request body, counts the calls under way at once, and answers as `mode` says.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

// biome-ignore lint/suspicious/noExplicitAny: request bodies are untyped JSON, read field by field in assertions
type Json = Record<string, any>;

export type FakeLlmMode =
  /** Answers the draft it was sent, reworded: the figures and placeholders kept. */
  | 'echo'
  /** Answers `content` as it is. */
  | 'fixed'
  /** Holds each request until `release()`, then echoes. */
  | 'hold'
  /** Never answers. */
  | 'hang'
  /** 500. */
  | 'error'
  /**
   * A 200 whose body streams on and on (up to 1 GB, no Content-Length): it ends only if the client reads it all,
   * so a client that stops reading is always seen cutting it off, however much the sockets buffer.
   */
  | 'huge';

export interface FakeLlm {
  url: string;
  mode: FakeLlmMode;
  content: string;
  requests: Json[];
  inFlight: number;
  maxInFlight: number;
  /** True once a 'huge' answer was cut off by the client before its end. */
  cutOff: boolean;
  /** Answers every held request. */
  release(): void;
  close(): Promise<void>;
}

/** The draft the explainer sent in the user message, as the model saw it. */
export function draftOf(body: Json): string {
  const user = (body.messages as { role: string; content: string }[]).find((m) => m.role === 'user')!.content;
  return user.slice(user.indexOf('\nDraft:\n') + '\nDraft:\n'.length);
}

export async function startFakeLlm(): Promise<FakeLlm> {
  const held: (() => void)[] = [];
  const fake: FakeLlm = {
    url: '',
    mode: 'echo',
    content: '',
    requests: [],
    inFlight: 0,
    maxInFlight: 0,
    cutOff: false,
    release: () => {
      for (const answer of held.splice(0)) answer();
    },
    close: async () => {},
  };
  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Json;
    fake.requests.push(body);
    fake.inFlight++;
    fake.maxInFlight = Math.max(fake.maxInFlight, fake.inFlight);
    res.on('close', () => fake.inFlight--);
    const answer = (content: string) => {
      res.setHeader('Content-Type', 'application/json');
      res.end(
        JSON.stringify({ choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }] }),
      );
    };
    const echo = () => answer(`In plain words: ${draftOf(body)}`);
    switch (fake.mode) {
      case 'echo':
        return echo();
      case 'fixed':
        return answer(fake.content);
      case 'hold':
        return void held.push(echo);
      case 'hang':
        return;
      case 'error':
        res.statusCode = 500;
        return void res.end('{"error":{"message":"overloaded"}}');
      case 'huge': {
        res.setHeader('Content-Type', 'application/json');
        res.write('{"choices":[{"message":{"role":"assistant","content":"');
        const chunk = 'A'.repeat(64 * 1024);
        for (let i = 0; i < 16 * 1024; i++) {
          if (res.destroyed) {
            fake.cutOff = true;
            return;
          }
          if (!res.write(chunk))
            await new Promise<void>((resolve) => {
              const go = () => {
                res.off('drain', go).off('close', go);
                resolve();
              };
              res.on('drain', go).on('close', go);
            });
        }
        if (res.destroyed) {
          fake.cutOff = true;
          return;
        }
        return void res.end('"}}]}');
      }
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/chat/completions`;
  fake.close = () =>
    new Promise((resolve) => {
      fake.release();
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return fake;
}
