import { createHash } from 'node:crypto';

/** A Lua script with its SHA1, run by EVALSHA and, when the server does not have it yet, by EVAL. */
export interface StoreScript {
  readonly source: string;
  readonly sha: string;
}

function script(body: string): StoreScript {
  const source = `${common}\n${body}`;
  return { source, sha: createHash('sha1').update(source).digest('hex') };
}

/*
 * Every store uses three Redis keys sharing one hash tag (one cluster slot): `r`, a hash from member to record;
 * `k`, a sorted set of members (all score 0) giving key order by ZRANGEBYLEX; `x`, a sorted set of the members
 * that expire, scored by their expiry. A member is the key's UTF-16 code units in hex, so byte order of
 * members is JavaScript's string order. A record is `version \n updatedAtMs \n expiresAtMs-or-empty \n key \n
 * JSON`; keys hold no control character, and JSON text no raw newline.
 */
const common = `
local function parse(record)
  local version, updated, expires = string.match(record, '^(%d+)\\n(%d+)\\n(%d*)\\n')
  return tonumber(version), updated, expires
end
local function live(expires, now)
  return expires == '' or tonumber(expires) > now
end
local function remove(r, k, x, member)
  redis.call('HDEL', r, member)
  redis.call('ZREM', k, member)
  redis.call('ZREM', x, member)
end
-- The change feed: every write and delete publishes [store, key, version, expiresAt, updatedAt] (a deletion:
-- [store, key]) on the prefix's channel, in the same script run as the write. Never the value.
local function announce(channel, store, key, version, expires, updated)
  if version then
    redis.call('PUBLISH', channel, cjson.encode({store, key, version, expires, updated}))
  else
    redis.call('PUBLISH', channel, cjson.encode({store, key}))
  end
end
local function keyOf(record)
  return string.match(record, '^%d+\\n%d+\\n%d*\\n([^\\n]*)\\n')
end
local function liveCount(r, x, now)
  return redis.call('HLEN', r) - redis.call('ZCOUNT', x, '-inf', now)
end
`;

/**
 * KEYS r k x; ARGV member key json now expiresAt('' none) expected('' none) maxEntries channel store. Removes
 * up to 100 expired records (announced as deletions), then writes when the version matches and (for a new key)
 * the bound allows, and announces the write. Answers {1, record} written, {0, current-or-''} refused,
 * {-1, liveCount} full.
 */
export const putScript = script(`
local r, k, x = KEYS[1], KEYS[2], KEYS[3]
local now = tonumber(ARGV[4])
local gone = redis.call('ZRANGEBYSCORE', x, '-inf', now, 'LIMIT', 0, 100)
for i = 1, #gone do
  local record = redis.call('HGET', r, gone[i])
  remove(r, k, x, gone[i])
  if record then announce(ARGV[8], ARGV[9], keyOf(record)) end
end
local current = redis.call('HGET', r, ARGV[1])
local version = 0
if current then
  local found, _, expires = parse(current)
  if live(expires, now) then version = found else current = false end
end
if ARGV[6] ~= '' and tonumber(ARGV[6]) ~= version then
  return {0, current or ''}
end
if version == 0 then
  local count = liveCount(r, x, now)
  if count >= tonumber(ARGV[7]) then return {-1, tostring(count)} end
end
local record = (version + 1) .. '\\n' .. ARGV[4] .. '\\n' .. ARGV[5] .. '\\n' .. ARGV[2] .. '\\n' .. ARGV[3]
redis.call('HSET', r, ARGV[1], record)
redis.call('ZADD', k, 0, ARGV[1])
if ARGV[5] ~= '' then redis.call('ZADD', x, ARGV[5], ARGV[1]) else redis.call('ZREM', x, ARGV[1]) end
announce(ARGV[8], ARGV[9], ARGV[2], version + 1, ARGV[5], ARGV[4])
return {1, record}
`);

/**
 * KEYS r k x; ARGV member now expected('' none) channel store key. 1 when a live record was deleted; an expired
 * one is removed, 0. Either removal is announced.
 */
export const deleteScript = script(`
local r, k, x = KEYS[1], KEYS[2], KEYS[3]
local current = redis.call('HGET', r, ARGV[1])
if not current then return 0 end
local version, _, expires = parse(current)
if not live(expires, tonumber(ARGV[2])) then
  remove(r, k, x, ARGV[1])
  announce(ARGV[4], ARGV[5], ARGV[6])
  return 0
end
if ARGV[3] ~= '' and tonumber(ARGV[3]) ~= version then return 0 end
remove(r, k, x, ARGV[1])
announce(ARGV[4], ARGV[5], ARGV[6])
return 1
`);

/** KEYS r k; ARGV now min max limit('' none). Live records in member order, expired ones left out before the limit. */
export const listScript = script(`
local r, k = KEYS[1], KEYS[2]
local now = tonumber(ARGV[1])
local limit = tonumber(ARGV[4])
local out = {}
local from = ARGV[2]
local batch = 1000
while true do
  local members = redis.call('ZRANGEBYLEX', k, from, ARGV[3], 'LIMIT', 0, batch)
  if #members == 0 then break end
  local records = redis.call('HMGET', r, unpack(members))
  for i = 1, #members do
    local record = records[i]
    if record then
      local _, _, expires = parse(record)
      if live(expires, now) then
        out[#out + 1] = record
        if limit and #out >= limit then return out end
      end
    end
  end
  if #members < batch then break end
  -- The next batch starts after the last member read (exclusive): each step costs log(N) + batch. An OFFSET would
  -- skip every member read so far again, quadratic in the store's size (100,000 records held Redis for seconds).
  from = '(' .. members[#members]
end
return out
`);

/** KEYS r x; ARGV now. The number of live records. */
export const countScript = script(`
return liveCount(KEYS[1], KEYS[2], tonumber(ARGV[1]))
`);
