import { z } from 'zod';
import { camelCase, defOf, isInteger, pascalCase, unwrapSchema } from './zod-walk';

const typeOf = (schema: unknown) => defOf(schema)?.type;

describe('zod schema walker', () => {
  it('unwraps optional, default, nullable and catch as optional; readonly and nonoptional as required', () => {
    for (const schema of [
      z.string().optional(),
      z.string().default('x'),
      z.string().nullable(),
      z.string().catch('x'),
    ]) {
      const unwrapped = unwrapSchema(schema);
      expect([typeOf(unwrapped.schema), unwrapped.optional]).toEqual(['string', true]);
    }
    const required = unwrapSchema(z.array(z.number()).readonly());
    expect([typeOf(required.schema), required.optional]).toEqual(['array', false]);
  });

  it('follows lazy schemas and pipes (the input, or the target of a preprocess)', () => {
    expect(typeOf(unwrapSchema(z.lazy(() => z.boolean())).schema)).toBe('boolean');
    expect(typeOf(unwrapSchema(z.string().pipe(z.email())).schema)).toBe('string');
    expect(typeOf(unwrapSchema(z.string().transform((text) => text.length)).schema)).toBe('string');
    expect(typeOf(unwrapSchema(z.preprocess((value) => Number(value), z.number())).schema)).toBe('number');
  });

  it('stops on a self-referencing lazy schema', () => {
    const loop: z.ZodType = z.lazy(() => loop);
    expect(typeOf(unwrapSchema(loop).schema)).toBe('lazy');
  });

  it('gives no definition for what is not a zod schema', () => {
    expect(defOf({})).toBeUndefined();
    expect(defOf(undefined)).toBeUndefined();
    expect(unwrapSchema('text')).toEqual({ schema: 'text', optional: false });
  });

  it('tells integers from other numbers', () => {
    expect(isInteger(defOf(z.number().int())!)).toBe(true);
    expect(isInteger(defOf(z.int32())!)).toBe(true);
    expect(isInteger(defOf(z.number().min(1))!)).toBe(false);
  });

  it('makes identifiers from behavior ids', () => {
    expect(pascalCase('orders.get')).toBe('OrdersGet');
    expect(pascalCase('tenant-members.list_all')).toBe('TenantMembersListAll');
    expect(camelCase('orders.get')).toBe('ordersGet');
  });
});
