import { defineOperation, type CatalogView, type OperatorViewDefinition } from '@corekit/abstractions';
import { z } from 'zod';
import { registrationProblems, throwIfInvalid, type Registrations } from './registration-validation';

const cancel = defineOperation({
  id: 'orders.cancel',
  method: 'POST',
  path: '/api/orders/:orderId/cancel',
  summary: 'Cancel an order',
  params: z.object({ orderId: z.string() }),
  result: z.object({}),
  handler: async () => ({}),
});

function registrations(overrides: Partial<Registrations> = {}): Registrations {
  return {
    modules: [],
    contributors: [],
    hostedServices: [],
    hooks: [],
    operations: { list: () => [cancel], problems: () => [] },
    eventIds: { problems: () => [] },
    catalogViews: [],
    operatorViews: [],
    ...overrides,
  };
}

describe('registrationProblems', () => {
  it('answers nothing for valid registrations', () => {
    expect(registrationProblems(registrations({ modules: [{ id: 'orders', version: '1.0.0' }] }))).toEqual(
      [],
    );
  });

  it('lists id, version and interval problems first, then operations, event ids and actions', () => {
    const problems = registrationProblems(
      registrations({
        modules: [
          { id: 'orders', version: '1.0.0' },
          { id: 'orders', version: '' },
        ],
        contributors: [{ id: 'db', kind: 'postgres', timeoutSeconds: -1 } as never],
        operations: { list: () => [cancel], problems: () => ['operation problem'] },
        eventIds: { problems: () => ['event id problem'] },
        operatorViews: [
          {
            id: 'orders-view',
            actions: [{ operationId: 'orders.cancel', label: 'Cancel' }],
            forms: [{ operationId: 'orders.missing', label: 'New' }],
          } as unknown as OperatorViewDefinition,
        ],
      }),
    );
    expect(problems).toEqual([
      'module id "orders" is registered twice',
      'module orders has no version',
      'dependency-health contributor db timeoutSeconds must be a positive number, got -1',
      'operation problem',
      'event id problem',
      'operator view orders-view action "Cancel" does not fill the parameters orderId',
      'operator view orders-view form "New" names operation "orders.missing", which is not registered',
    ]);
  });

  it('checks the actions of catalog views against the operations', () => {
    const view = {
      definition: {
        id: 'orders',
        views: [
          {
            segment: 'open',
            actions: [{ operationId: 'orders.cancel', label: 'Cancel', params: { orderId: 'id' } }],
          },
        ],
      },
    } as unknown as CatalogView;
    expect(registrationProblems(registrations({ catalogViews: [view] }))).toEqual([]);
  });
});

describe('throwIfInvalid', () => {
  it('throws ENGINE_REGISTRATION_INVALID listing every problem, and nothing without one', () => {
    expect(() => throwIfInvalid([])).not.toThrow();
    expect(() => throwIfInvalid(['a', 'b'])).toThrow(
      expect.objectContaining({
        code: 'ENGINE_REGISTRATION_INVALID',
        message: 'The engine cannot be built:\n- a\n- b',
        details: { problems: ['a', 'b'] },
      }),
    );
  });
});
