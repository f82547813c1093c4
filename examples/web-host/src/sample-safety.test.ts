import { sampleHostStarter } from './test-support/sample-starter';

const startSample = sampleHostStarter();

const operatorToken = 'operator-token-7f3a';
const production = { NODE_ENV: 'production', SAMPLE_OPERATOR_TOKEN: operatorToken };

async function start(environment: Record<string, string> = {}, configuration?: Record<string, unknown>) {
  const sample = await startSample(environment, configuration);
  const { base } = sample;
  const request = async (
    method: string,
    path: string,
    init: { headers?: Record<string, string>; body?: unknown } = {},
  ) => {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: {
        ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
        ...init.headers,
      },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    });
    const text = await response.text();
    return {
      status: response.status,
      text,
      body: /json/.test(response.headers.get('content-type') ?? '') ? JSON.parse(text) : undefined,
    };
  };
  return { ...sample, request };
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** Paths an anonymous caller may reach in production: health, the documents, the application's own routes. */
const publicInProduction = [
  /^\/health(\/|$)/,
  /^\/openapi\//,
  /^\/scalar(\/|$)/,
  /^\/api\/orders(\/|$)/,
  /^\/api\/orders-summary$/,
  /^\/v2\/orders(\/|$)/,
  /^\/partner\/orders(\/|$)/,
  /^\/graphql$/,
  /^\/rpc$/,
  /^\/streams\/orders\.replay$/,
  // The console's sign-in page and its stylesheet (anonymous by design: the way in), and sign-out, which without a
  // session only clears a cookie (console-sign-in.test.ts covers the CSRF check of a signed-in sign-out).
  /^\/engine\/console\/login$/,
  /^\/engine\/console\/sign-in\.css$/,
  /^\/engine\/console\/logout$/,
];

describe('the sample host in production', () => {
  it('answers 401/403 to every anonymous request except health and the application public routes and documents', async () => {
    const { request } = await start(production);
    const document = (await request('GET', '/openapi/v1.json', { headers: bearer(operatorToken) })).body;
    const operations = Object.entries(document.paths as Record<string, Record<string, unknown>>).flatMap(
      ([path, methods]) => Object.keys(methods).map((method) => ({ method: method.toUpperCase(), path })),
    );
    expect(operations.length).toBeGreaterThan(50);
    const open: string[] = [];
    for (const { method, path } of operations) {
      const concrete = path.replace(/\{[^}]+\}/g, 'x');
      if (publicInProduction.some((pattern) => pattern.test(concrete))) continue;
      const answer = await request(
        method,
        concrete,
        method === 'GET' || method === 'DELETE' ? {} : { body: {} },
      );
      if (answer.status !== 401 && answer.status !== 403) open.push(`${method} ${path} ${answer.status}`);
    }
    expect(open).toEqual([]);
    // The application's routes stay public; GraphQL answers queries but not introspection.
    expect((await request('GET', '/api/orders')).status).toBe(200);
    const introspection = await request('POST', '/graphql', {
      body: { query: '{ __schema { types { name } } }' },
    });
    expect(introspection.body.data).toBeUndefined();
    expect(introspection.text).not.toContain('OrdersGetResult');
    expect((await request('GET', '/health/ready')).status).toBe(200);
  });

  it('has no demo tokens and no demo routes: the published tokens and the upstream switch are refused', async () => {
    const { request } = await start(production);
    const run = await request('POST', '/engine/agent-tools/lookup-ticket/runs', {
      headers: bearer('demo-agent'),
      body: { arguments: '{"ticketId":"T-100"}' },
    });
    expect([401, 403]).toContain(run.status);
    for (const token of ['demo-approver', 'demo-governance-admin']) {
      expect([401, 403]).toContain(
        (await request('GET', '/engine/agent-tool-runs', { headers: bearer(token) })).status,
      );
    }
    const down = await request('POST', '/api/demo/upstreams/inventory/down');
    expect(down.status).toBe(404);
    expect((await request('GET', '/health/ready')).status).toBe(200);
  });

  it('guards /metrics by default (Engine:Observability:OpenTelemetry:Prometheus:Exposure) and carries no host, process or owner attributes', async () => {
    const { request, close } = await start(production);
    expect([401, 403]).toContain((await request('GET', '/metrics')).status);
    const scraped = await request('GET', '/metrics', { headers: bearer(operatorToken) });
    expect(scraped.status).toBe(200);
    for (const attribute of [
      'host_name',
      'process_pid',
      'process_command',
      'process_owner',
      'process_executable',
    ]) {
      expect([attribute, scraped.text.includes(attribute)]).toEqual([attribute, false]);
    }
    await close();
    const opened = await start(production, {
      Engine: { Observability: { OpenTelemetry: { Prometheus: { Exposure: 'Open' } } } },
    });
    expect((await opened.request('GET', '/metrics')).status).toBe(200);
  });
});

describe('the sample host against abusive input (development)', () => {
  it('keeps answering /api/orders-summary with skus named like Object members', async () => {
    const { request } = await start();
    for (const sku of ['constructor', '__proto__', 'toString', 'hasOwnProperty']) {
      expect((await request('POST', '/api/orders', { body: { sku, quantity: 2 } })).status).toBe(201);
    }
    await request('POST', '/api/orders', { body: { sku: 'constructor', quantity: 1 } });
    const summary = await request('GET', '/api/orders-summary');
    expect(summary.status).toBe(200);
    expect(summary.body.orders).toBe(5);
    expect(JSON.parse(summary.text).unitsBySku).toMatchObject({
      constructor: 3,
      toString: 2,
      hasOwnProperty: 2,
    });
  });

  it('answers 404 for demo upstream names and states that are Object members', async () => {
    const { request } = await start();
    for (const path of [
      '__proto__/up',
      'constructor/up',
      'toString/down',
      'inventory/__proto__',
      'inventory/constructor',
    ]) {
      const answer = await request('POST', `/api/demo/upstreams/${path}`);
      expect([path, answer.status]).toEqual([path, 404]);
    }
    expect((await request('POST', '/api/demo/upstreams/pricing/slow')).status).toBe(200);
  });

  it('checks the authorization scheme: a bare token without Bearer is not accepted', async () => {
    const { request } = await start({ SAMPLE_OPERATOR_TOKEN: operatorToken });
    const body = { arguments: '{"ticketId":"T-100"}' };
    const bare = await request('POST', '/engine/agent-tools/lookup-ticket/runs', {
      headers: { authorization: 'demo-agent' },
      body,
    });
    expect(bare.status).toBe(401);
    const basic = await request('POST', '/engine/agent-tools/lookup-ticket/runs', {
      headers: { authorization: 'Basic demo-agent' },
      body,
    });
    expect(basic.status).toBe(401);
    const proper = await request('POST', '/engine/agent-tools/lookup-ticket/runs', {
      headers: bearer('demo-agent'),
      body,
    });
    expect(proper.status).toBe(200);
  });

  it('separates duties: the demo approver cannot start a run, the demo agent cannot decide one', async () => {
    const { request } = await start();
    const byApprover = await request('POST', '/engine/agent-tools/issue-refund/runs', {
      headers: bearer('demo-approver'),
      body: { runId: 'approver-refund', arguments: '{"ticketId":"T-100","amount":9999}' },
    });
    expect(byApprover.status).toBe(403);
    expect((await request('GET', '/engine/agent-tool-runs/approver-refund')).status).toBe(404);
    const requested = await request('POST', '/engine/agent-tools/issue-refund/runs', {
      headers: bearer('demo-agent'),
      body: { runId: 'agent-refund', arguments: '{"ticketId":"T-100","amount":9999}' },
    });
    expect(requested.body).toMatchObject({ outcome: 'approval-required' });
    const byAgent = await request('POST', '/engine/agent-tool-runs/agent-refund/decision', {
      headers: bearer('demo-agent'),
      body: { decision: 'approve' },
    });
    expect(byAgent.status).toBe(403);
    const approved = await request('POST', '/engine/agent-tool-runs/agent-refund/decision', {
      headers: bearer('demo-approver'),
      body: { decision: 'approve' },
    });
    expect([approved.status, approved.body.outcome]).toEqual([200, 'succeeded']);
  });

  it('counts a flood of refused stream clients in one log record instead of one error each', async () => {
    const { base, logger } = await start({}, { Engine: { Web: { Events: { MaxConnections: 1 } } } });
    const first = await fetch(`${base}/engine/events`);
    expect(first.status).toBe(200);
    const refused = await Promise.all(
      Array.from({ length: 40 }, () => fetch(`${base}/engine/events`).then((response) => response.status)),
    );
    expect(new Set(refused)).toEqual(new Set([503]));
    const records = logger.records.filter((record) => String(record.message).includes('MaxConnections'));
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ level: 'warn', refusedCount: 1 });
    expect(logger.records.filter((record) => record.level === 'error')).toEqual([]);
    await first.body!.cancel();
  });
});
