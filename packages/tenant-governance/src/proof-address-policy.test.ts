import { allowListCovers, internalAddressClass, isAddressOrRange } from './proof-address-policy';

describe('internal address classes of the HTTP file proof', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.45.6.7', 'loopback'],
    ['0.0.0.0', 'unspecified'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.10.1', 'private'],
    ['100.64.0.1', 'shared-cgnat'],
    ['100.127.255.254', 'shared-cgnat'],
    ['169.254.1.1', 'link-local'],
    ['169.254.169.254', 'metadata'],
    ['100.100.100.200', 'metadata'],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'reserved'],
    ['192.0.2.10', 'documentation'],
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['0:0:0:0:0:0:0:1', 'loopback'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['fc00::1', 'unique-local'],
    ['fd12:3456::1', 'unique-local'],
    ['fd00:ec2::254', 'metadata'],
    ['ff02::1', 'multicast'],
    ['2001:db8::1', 'documentation'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:169.254.169.254', 'metadata'],
    ['::ffff:a9fe:a9fe', 'metadata'],
    ['::ffff:10.0.0.1', 'private'],
    ['::127.0.0.1', 'loopback'],
    ['64:ff9b::a9fe:a9fe', 'metadata'],
    ['64:ff9b::10.0.0.1', 'private'],
    ['2002:7f00:1::1', 'loopback'],
    ['2002:c0a8:101::', 'private'],
    ['2001::1', 'translation'],
  ])('%s is %s', (address, addressClass) => {
    expect(internalAddressClass(address)).toBe(addressClass);
  });

  it.each([
    '93.184.216.34',
    '8.8.8.8',
    '172.32.0.1',
    '100.128.0.1',
    '2606:4700:4700::1111',
    '::ffff:8.8.8.8',
    '64:ff9b::808:808',
    '2002:808:808::1',
  ])('%s is public', (address) => {
    expect(internalAddressClass(address)).toBeUndefined();
  });

  it('an allow-list entry covers an address, its range and the IPv6 forms embedding it', () => {
    expect(allowListCovers(['127.0.0.1'], '127.0.0.1')).toBe(true);
    expect(allowListCovers(['127.0.0.1'], '127.0.0.2')).toBe(false);
    expect(allowListCovers(['10.0.0.0/8'], '10.200.1.1')).toBe(true);
    expect(allowListCovers(['10.0.0.0/8'], '::ffff:10.200.1.1')).toBe(true);
    expect(allowListCovers(['fd00::/8'], 'fd12::1')).toBe(true);
    expect(allowListCovers(['fd00::/8'], 'fe80::1')).toBe(false);
    expect(allowListCovers([], '127.0.0.1')).toBe(false);
  });

  it('accepts addresses and CIDR ranges only in the allow-list', () => {
    for (const entry of ['127.0.0.1', '10.0.0.0/8', '::1', 'fd00::/8', '::ffff:127.0.0.1/128'])
      expect([entry, isAddressOrRange(entry)]).toEqual([entry, true]);
    for (const entry of [
      'localhost',
      '10.0.0.0/33',
      '::/129',
      '10.0.0.0/8/1',
      '1.2.3',
      'fe80::1%eth0',
      '10.0.0.0/x',
    ])
      expect([entry, isAddressOrRange(entry)]).toEqual([entry, false]);
  });
});
