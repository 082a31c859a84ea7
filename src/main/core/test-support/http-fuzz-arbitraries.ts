// Test support: fast-check arbitraries for requests to the desk — real route shapes with fuzzed segments,
// garbage paths, odd methods and headers, and bodies from valid-ish JSON to binary junk.
import fc from 'fast-check';
import { EVENTS_SUBPROTOCOL } from '../../../shared/events';

/** A dependency no fuzzed request ever submits: tasks made valid by the fuzzer wait on it and never run. */
export const BLOCKER = 'fz-never-submitted';

export interface FuzzContext {
  port: number;
  token: string;
  agentToken: string;
  /** Ids that exist, so some requests reach past the 404s. */
  taskIds: string[];
  governanceIds: string[];
}

export interface FuzzRequest {
  family: 'aa' | 'tasks' | 'api' | 'ap' | 'agent' | 'ui' | 'garbage';
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: Buffer;
}

/** Segments that trip up decoders and path handling. */
const ODD_SEGMENTS = [
  '', '.', '..', '%2e%2e', '%2E%2e%2f', '..%2f..%2fetc%2fpasswd', '%', '%zz', '%E0%A4%A', '%C0%AF', '%00', 'a%00b', '%2F', '%5C',
  '%FF%FE', '%F0%9F%98', '%u0041', ';', '@', ':', '~', "!$&'()*+,=", '%20', '+', '%252e', 'a'.repeat(3000), '%ED%A0%80',
];

const ODD_QUERY_VALUES = ['', '-1', '0', '1', '1.5', '1e309', 'NaN', 'Infinity', '9007199254740993', '%', '%zz', '%00', 'a+b', '%E0%A4%A', 'x'.repeat(2000), '[]', '{}'];

function encodeSafely(text: string): string {
  try {
    return encodeURIComponent(text);
  } catch {
    return 'lone-surrogate';
  }
}

function segment(known: string[]): fc.Arbitrary<string> {
  return fc.oneof(
    { arbitrary: fc.constantFrom(...(known.length > 0 ? known : ['x']).map(encodeSafely)), weight: known.length > 0 ? 4 : 1 },
    { arbitrary: fc.constantFrom(...ODD_SEGMENTS), weight: 3 },
    { arbitrary: fc.string({ maxLength: 40 }).map(encodeSafely), weight: 2 },
    { arbitrary: fc.string({ unit: 'binary', maxLength: 20 }).map(encodeSafely), weight: 1 },
  );
}

function query(): fc.Arbitrary<string> {
  const pair = fc.tuple(
    fc.constantFrom('after', 'limit', 'current_page', 'page_size', 'state', 'agent', 'task', 'before', 'x', '%zz', ''),
    fc.oneof(fc.constantFrom(...ODD_QUERY_VALUES), fc.integer().map(String), fc.string({ maxLength: 20 }).map(encodeSafely)),
  ).map(([key, value]) => `${key}=${value}`);
  return fc.oneof({ arbitrary: fc.constant(''), weight: 3 }, fc.array(pair, { minLength: 1, maxLength: 4 }).map((pairs) => `?${pairs.join('&')}`));
}

/** Route shapes per family; `:t` a task id, `:g` a governance request id, `:a` an agent id, `:s` anything. */
const SHAPES: Record<FuzzRequest['family'], string[]> = {
  aa: ['/', '/:t'],
  tasks: ['/tasks/:t', '/tasks/:t/input', '/tasks/:t/prompt', '/tasks/:t/mode', '/tasks/:t/config', '/tasks/:t/approve', '/tasks/:t/reject',
    '/tasks/:t/rerun', '/tasks/:t/dependencies', '/tasks/:t/dependencies/:t', '/tasks/:s/:s/:s'],
  api: ['/api/tasks', '/api/tasks/:t/events', '/api/tasks/:t/diff', '/api/settings', '/api/agents', '/api/agents/:a/login', '/api/agents/:a/login/input',
    '/api/governance/requests', '/api/governance/requests/:g', '/api/governance/requests/:g/answer', '/api/governance/policy',
    '/api/governance/agents/:a/token', '/api/events', '/api/:s'],
  ap: ['/ap/v1/agent/tasks', '/ap/v1/agent/tasks/:t', '/ap/v1/agent/tasks/:t/steps', '/ap/v1/agent/tasks/:t/steps/:s',
    '/ap/v1/agent/tasks/:t/artifacts', '/ap/v1/agent/tasks/:t/artifacts/:s', '/ap/v1/:s'],
  agent: ['/agent/request', '/agent/status/:g', '/agent/capabilities', '/agent/:s'],
  ui: ['/ui', '/ui/', '/ui/index.html', '/ui/:s', '/ui/assets/:s', '/ui/:s/:s'],
  garbage: ['//', '///', '//:s', '/:s', '/:s/:s/:s/:s', '/%2F%2F', '/./:s', '/../../:s'],
};

function path(family: FuzzRequest['family'], context: FuzzContext): fc.Arbitrary<string> {
  const ids = { t: segment(context.taskIds), g: segment(context.governanceIds), a: segment(['scripted', 'fuzz-agent', 'claude']), s: segment([]) };
  return fc.constantFrom(...SHAPES[family]).chain((shape) => {
    const parts = shape.split('/').map((part) => (part.startsWith(':') ? ids[part.slice(1) as keyof typeof ids] : fc.constant(part)));
    return fc.tuple(fc.tuple(...parts), query()).map(([segments, search]) => `${segments.join('/') || '/'}${search}`);
  });
}

/** Bodies a route would accept, shaped so that an accepted one starts no agent work. */
function validishJson(context: FuzzContext): fc.Arbitrary<unknown> {
  const id = fc.oneof(fc.constantFrom(...context.taskIds), fc.stringMatching(/^fz-[a-z0-9-]{1,20}$/));
  return fc.oneof(
    fc.record({ id, prompt: fc.constantFrom('say hi', '', '   '), dependencies: fc.constant([BLOCKER]) }),
    fc.record({ id }),
    fc.record({ optionId: fc.string() }), fc.constant({ declined: true }), fc.record({ content: fc.dictionary(fc.string(), fc.jsonValue()) }),
    fc.record({ prompt: fc.string() }), fc.record({ modeId: fc.string() }), fc.record({ configId: fc.string(), value: fc.oneof(fc.string(), fc.boolean()) }),
    fc.record({ dependencies: fc.array(id, { maxLength: 3 }).map((ids) => [BLOCKER, ...ids]) }),
    fc.constantFrom({ concurrency: 1 }, { concurrency: 0 }, { concurrency: 1.5 }, { defaultAgent: 'nope' }, { extra: true }),
    fc.record({ decision: fc.constantFrom('approved', 'rejected', 'maybe'), answeredBy: fc.string() }, { requiredKeys: ['decision'] }),
    fc.record({ request_type: fc.constantFrom('APPROVAL', 'QUERY', 'VALIDATE', 'REPORT', 'NOPE'), agent_id: fc.constantFrom('fuzz-agent', 'other', '../x'),
      action: fc.constantFrom('create', 'read', 'execute', 'fetch', 'fly'), target_path: fc.constantFrom('a.txt', '../../etc/passwd', '/etc/passwd', ''),
      command: fc.string(), request_id: fc.constantFrom(...context.governanceIds, 'gov-x'), task_id: id }, { requiredKeys: ['request_type'] }),
    fc.record({ version: fc.constantFrom(1, 2), defaults: fc.jsonValue(), agents: fc.jsonValue() }, { requiredKeys: [] }),
    fc.record({ input: fc.constantFrom('say hi', '', null), additional_input: fc.constantFrom({ dependencies: [BLOCKER] }, null, { agent: 'nope', dependencies: [BLOCKER] }) }),
    fc.record({ input: fc.oneof(fc.string(), fc.constant(null)), additional_input: fc.constantFrom({ question_id: 'q' }, { declined: true }, { answer: {} }, null) }),
  );
}

function multipart(): fc.Arbitrary<{ type: string; body: Buffer }> {
  return fc.tuple(fc.constantFrom('file', 'other'), fc.string({ maxLength: 30 }), fc.uint8Array({ maxLength: 200 }), fc.boolean(), fc.constantFrom('a.txt', '../evil', '', 'x"y'))
    .map(([field, relative, data, complete, fileName]) => {
      const head = `--BOUNDARY\r\nContent-Disposition: form-data; name="relative_path"\r\n\r\n${relative}\r\n`
        + `--BOUNDARY\r\nContent-Disposition: form-data; name="${field}"; filename="${fileName}"\r\nContent-Type: application/octet-stream\r\n\r\n`;
      const tail = complete ? '\r\n--BOUNDARY--\r\n' : '';
      return { type: 'multipart/form-data; boundary=BOUNDARY', body: Buffer.concat([Buffer.from(head), Buffer.from(data), Buffer.from(tail)]) };
    });
}

type Body = { type?: string; body?: Buffer };

function body(context: FuzzContext): fc.Arbitrary<Body> {
  const json = (text: string): Body => ({ type: 'application/json', body: Buffer.from(text) });
  return fc.oneof(
    { arbitrary: fc.constant({}), weight: 6 },
    { arbitrary: validishJson(context).map((value) => json(JSON.stringify(value))), weight: 8 },
    { arbitrary: fc.jsonValue().map((value) => json(JSON.stringify(value) ?? 'null')), weight: 2 },
    { arbitrary: fc.tuple(validishJson(context), fc.nat()).map(([value, cut]) => {
      const text = JSON.stringify(value);
      return json(text.slice(0, cut % Math.max(1, text.length)));
    }), weight: 2 },
    // Binary junk, and now and then a body past the 1 MiB limit.
    { arbitrary: fc.oneof(
      { arbitrary: fc.uint8Array({ maxLength: 300 }).map((bytes) => ({ type: 'application/json', body: Buffer.from(bytes) })), weight: 9 },
      fc.constantFrom(1.2 * 1024 * 1024, 3 * 1024 * 1024).map((size) => ({ type: 'application/json', body: Buffer.alloc(size, 0x20) })),
    ), weight: 1 },
    { arbitrary: fc.constant({ type: 'application/json', body: Buffer.from([0x7b, 0x22, 0xc3, 0x28, 0x22, 0x3a, 0x31, 0x7d]) }), weight: 1 },
    { arbitrary: multipart(), weight: 2 },
  );
}

function headers(context: FuzzContext): fc.Arbitrary<{ authorization?: string; host: string; origin?: string; contentType?: string; accept?: string }> {
  const printable = fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength: 60 });
  const host = `127.0.0.1:${context.port}`;
  return fc.record({
    authorization: fc.oneof(
      { arbitrary: fc.constant(`Bearer ${context.token}`), weight: 16 },
      { arbitrary: fc.constant(`Bearer ${context.agentToken}`), weight: 2 },
      fc.constantFrom(undefined, '', 'Bearer', 'Bearer ', `bearer   ${context.token}  `, `Basic ${context.token}`, `Bearer ${context.token} extra`, 'Bearer wrong'),
      printable,
    ),
    host: fc.oneof({ arbitrary: fc.constant(host), weight: 16 }, fc.constantFrom('localhost', 'evil.com', '[::1', '127.0.0.1:99999999', 'a'.repeat(300), ' ', 'x.localhost:1', '[::1]:1'), printable),
    origin: fc.oneof({ arbitrary: fc.constant(undefined), weight: 12 }, fc.constantFrom('https://prompt-pad.danmercer.net', `http://${host}`, 'null', 'https://evil.com', ''), printable),
    contentType: fc.oneof({ arbitrary: fc.constant(undefined), weight: 10 },
      fc.constantFrom('text/plain', 'application/json; charset=latin1', 'application/vnd.x+json', 'multipart/form-data', 'multipart/form-data; boundary=', '*/*', ';;;'), printable),
    accept: fc.constantFrom(undefined, 'text/html', '*/*'),
  }, { requiredKeys: ['host'] });
}

/** One request to the desk, over the HTTP client (so its framing is valid; raw bytes are a separate test). */
export function fuzzRequest(context: FuzzContext): fc.Arbitrary<FuzzRequest> {
  const family = fc.constantFrom<FuzzRequest['family']>('aa', 'tasks', 'api', 'ap', 'agent', 'ui', 'garbage');
  const method = fc.oneof({ arbitrary: fc.constantFrom('GET', 'POST', 'PUT', 'DELETE'), weight: 8 },
    fc.constantFrom('HEAD', 'OPTIONS', 'PATCH', 'PROPFIND', 'M-SEARCH', 'PURGE', 'MKCOL', 'LOCK', 'TRACE', 'SEARCH', 'QUERY', 'BREW', 'get'));
  return fc.tuple(family, method, headers(context), body(context)).chain(([fam, verb, head, payload]) => path(fam, context).map((target): FuzzRequest => {
    const all: Record<string, string> = { host: head.host, ...(head.accept !== undefined && { accept: head.accept }) };
    if (head.authorization !== undefined) all.authorization = head.authorization;
    if (head.origin !== undefined) all.origin = head.origin;
    const type = head.contentType ?? payload.type;
    if (type !== undefined) all['content-type'] = type;
    if (verb === 'OPTIONS') all['access-control-request-method'] = 'POST';
    return { family: fam, method: verb, path: target, headers: all, ...(payload.body !== undefined && { body: payload.body }) };
  }));
}

/** An upgrade to the events socket, often valid, then maybe garbage where frames should be. */
export function fuzzUpgrade(context: FuzzContext): fc.Arbitrary<{ bytes: Buffer; description: string }> {
  return fc.record({
    path: fc.oneof({ arbitrary: fc.constant('/api/events'), weight: 6 }, fc.constantFrom('/api/events/', '//api/events', '/api/eventz', '/', '/ui/')),
    search: fc.constantFrom('', '?after=0', '?after=1', '?after=-5', '?after=1e309', '?after=9007199254740993', '?after=%zz', '?after=1.5'),
    auth: fc.constantFrom(`Authorization: Bearer ${context.token}\r\n`, `Sec-WebSocket-Protocol: ${EVENTS_SUBPROTOCOL}, bearer.${context.token}\r\n`,
      `Sec-WebSocket-Protocol: bearer.${context.token}\r\n`, '', 'Authorization: Bearer nope\r\n', 'Sec-WebSocket-Protocol: ,,,\r\n'),
    key: fc.constantFrom('Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n', 'Sec-WebSocket-Key: short\r\n', ''),
    version: fc.constantFrom('Sec-WebSocket-Version: 13\r\n', 'Sec-WebSocket-Version: 8\r\n', 'Sec-WebSocket-Version: x\r\n', ''),
    upgrade: fc.constantFrom('websocket', 'WebSocket', 'h2c', 'garbage'),
    host: fc.constantFrom(`127.0.0.1:${context.port}`, 'evil.com'),
    after: fc.oneof(fc.constant(new Uint8Array()), fc.uint8Array({ minLength: 1, maxLength: 200 })),
  }).map((u) => {
    const head = `GET ${u.path}${u.search} HTTP/1.1\r\nHost: ${u.host}\r\nConnection: Upgrade\r\nUpgrade: ${u.upgrade}\r\n${u.key}${u.version}${u.auth}\r\n`;
    return { bytes: Buffer.concat([Buffer.from(head), Buffer.from(u.after)]), description: `${head.replace(/\r\n/g, ' | ')} + ${u.after.length} bytes` };
  });
}
