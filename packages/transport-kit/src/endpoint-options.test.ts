import { endpointPathSchema, maxBodyBytesSchema } from './endpoint-options';

describe('endpoint options', () => {
  it('defaults the path and refuses one that is not absolute', () => {
    expect(endpointPathSchema('/rpc').parse(undefined)).toBe('/rpc');
    expect(endpointPathSchema('/rpc').parse('/api/v1.rpc')).toBe('/api/v1.rpc');
    expect(endpointPathSchema('/rpc').safeParse('rpc').success).toBe(false);
    expect(endpointPathSchema('/rpc').safeParse('/a b').success).toBe(false);
  });

  it('bounds MaxBodyBytes between 1 KiB and 64 MiB, default 1 MiB', () => {
    expect(maxBodyBytesSchema.parse(undefined)).toBe(1024 * 1024);
    expect(maxBodyBytesSchema.safeParse(1023).success).toBe(false);
    expect(maxBodyBytesSchema.safeParse(64 * 1024 * 1024 + 1).success).toBe(false);
    expect(maxBodyBytesSchema.safeParse(1536.5).success).toBe(false);
  });
});
