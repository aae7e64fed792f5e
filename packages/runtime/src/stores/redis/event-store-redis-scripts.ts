// The Lua scripts of the Redis event store (event-store-redis.ts). Each runs atomically in
// Redis, so every instance sharing a prefix shares the bounds they keep. The keys, after the
// store's prefix:
//   s:<stream id>   the stream (a Redis stream, one entry per event, its JSON in field "m")
//   sizes           hash: each stream's bytes
//   streams         sorted set: each stream by when it was last written (Redis clock, in
//                   microseconds, made strictly increasing so that the order is the writes')
//   total           the bytes of all streams
//   g:<session>     sorted set: a session's streams by last write (`p|g.<session>.<rest>`)
// Every key expires maxAgeMs after the store was last written; a stream's key maxAgeMs after
// that stream was. A stream that expired is found in `streams` by its age on the next append,
// and its bytes given back.

/** Helpers both scripts use; ARGV[1] is the prefix. */
const COMMON = `
local prefix = ARGV[1]
local function sessionKey(id)
  local session = string.match(id, '^[pg]%.([^.]+)%.')
  if session then return prefix .. 'g:' .. session end
  return nil
end
-- Forgets stream 'id' and gives its bytes back.
local function drop(id)
  redis.call('DEL', prefix .. 's:' .. id)
  local size = tonumber(redis.call('HGET', KEYS[2], id) or '0')
  if size > 0 then redis.call('DECRBY', KEYS[4], size) end
  redis.call('HDEL', KEYS[2], id)
  redis.call('ZREM', KEYS[3], id)
  local session = sessionKey(id)
  if session then redis.call('ZREM', session, id) end
end
-- The least recently written stream of sorted set 'set' other than 'keep', if any.
local function oldestBut(set, keep)
  for _, id in ipairs(redis.call('ZRANGE', set, 0, 1)) do
    if id ~= keep then return id end
  end
  return nil
end
-- Drops the oldest event of the stream at 'key' (named 'id'); its bytes are given back.
-- A priming event's text is empty: no DECRBY then (a count of -0 is refused).
local function dropOldestEvent(key, id)
  local oldest = redis.call('XRANGE', key, '-', '+', 'COUNT', 1)[1]
  redis.call('XDEL', key, oldest[1])
  local size = #oldest[2][2]
  if size > 0 then
    redis.call('HINCRBY', KEYS[2], id, 0 - size)
    redis.call('DECRBY', KEYS[4], size)
  end
  return oldest
end
`;

/**
 * KEYS: the stream, sizes, streams, total. ARGV: prefix, stream id, the message's JSON ("" for
 * a priming position), maxEventsPerStream, maxBytesPerStream, maxAgeMs, maxStreams,
 * maxTotalBytes, maxStreamsPerSession. Returns the new entry's id.
 */
export const APPEND = `${COMMON}
local streamId, text = ARGV[2], ARGV[3]
local maxEvents, maxBytes, maxAge = tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6])
local maxStreams, maxTotal, perSession = tonumber(ARGV[7]), tonumber(ARGV[8]), tonumber(ARGV[9])
local t = redis.call('TIME')
local micros = tonumber(t[1]) * 1000000 + tonumber(t[2])
local now = math.floor(micros / 1000)
-- Streams not written to for maxAge have expired (this one too, maybe): give their bytes back.
local expired = micros - maxAge * 1000
for _, old in ipairs(redis.call('ZRANGEBYSCORE', KEYS[3], '-inf', expired, 'LIMIT', 0, 100)) do
  drop(old)
end
-- Two writes in one microsecond still get distinct places in the order.
local latest = redis.call('ZRANGE', KEYS[3], -1, -1, 'WITHSCORES')[2]
if latest and tonumber(latest) >= micros then micros = tonumber(latest) + 1 end
local id = redis.call('XADD', KEYS[1], '*', 'm', text)
if #text > 0 then
  redis.call('HINCRBY', KEYS[2], streamId, #text)
  redis.call('INCRBY', KEYS[4], #text)
end
redis.call('ZADD', KEYS[3], micros, streamId)
local session = sessionKey(streamId)
if session then redis.call('ZADD', session, micros, streamId) end
-- This stream's bounds: the oldest events go; the newest always stays.
local count = redis.call('XLEN', KEYS[1])
while count > 1 do
  local oldest = redis.call('XRANGE', KEYS[1], '-', '+', 'COUNT', 1)[1]
  local at = tonumber(string.match(oldest[1], '^(%d+)'))
  local bytes = tonumber(redis.call('HGET', KEYS[2], streamId) or '0')
  if count <= maxEvents and bytes <= maxBytes and now - at <= maxAge then break end
  dropOldestEvent(KEYS[1], streamId)
  count = count - 1
end
-- The session's and the store's bounds: the least recently written streams go, never this one.
while session and redis.call('ZCARD', session) > perSession do
  drop(oldestBut(session, streamId))
end
while redis.call('ZCARD', KEYS[3]) > maxStreams do
  drop(oldestBut(KEYS[3], streamId))
end
while tonumber(redis.call('GET', KEYS[4]) or '0') > maxTotal do
  local other = oldestBut(KEYS[3], streamId)
  if other then
    drop(other)
  elseif redis.call('XLEN', KEYS[1]) > 1 then
    dropOldestEvent(KEYS[1], streamId)
  else
    break
  end
end
for _, key in ipairs(KEYS) do redis.call('PEXPIRE', key, maxAge) end
if session then redis.call('PEXPIRE', session, maxAge) end
return id
`;

/** KEYS: the stream, sizes, streams, total. ARGV: prefix, stream id. */
export const DELETE = `${COMMON}
drop(ARGV[2])
if redis.call('ZCARD', KEYS[3]) == 0 then redis.call('DEL', KEYS[2], KEYS[4]) end
return 1
`;
