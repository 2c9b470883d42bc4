# frozen_string_literal: true

# A Rack service whose pools come in a chain: Puma worker processes x threads per worker, each
# worker holding its own pool of PostgreSQL connections (the connection_pool gem over the pg
# gem, as a Rails app's ActiveRecord pool is one per process). Debian: apt-get install puma
# ruby-pg ruby-connection-pool.
#
#     env POOL_SIZE={pool} DATABASE_URL=postgresql://USER@HOST:PORT/DB \
#         puma -w {workers} -t {threads}:{threads} -b tcp://127.0.0.1:{port} Examples/chain/chain_app.ru
#
# A request burns about 1 ms of its thread's CPU in Ruby (holding the worker's interpreter
# lock), then borrows a connection from the worker's pool and runs one query that holds it for
# about 5 ms of the database's time (pg_sleep), then answers 200. A request that waits too long
# for a connection, or whose query fails, answers 503 with the reason.
#
# Environment:
#   DATABASE_URL           libpq URL of the database (required)
#   POOL_SIZE              connections in each worker's pool (default: 5, ActiveRecord's)
#   CHAIN_APP_CPU_MS       CPU per request in ms (default 1)
#   CHAIN_APP_QUERY_MS     time a query holds its connection, in ms (default 5)
#   CHAIN_APP_POOL_WAIT_S  how long a request waits for a connection before failing (default 10)

require "pg"
require "connection_pool"

def chain_number(name, default)
  text = ENV.fetch(name, "")
  return default.to_f if text.empty?

  value = Float(text, exception: false)
  abort("chain_app: #{name}=#{text.inspect} is not a number") if value.nil?
  abort("chain_app: #{name}=#{text.inspect} must not be negative") if value.negative?
  value
end

CPU_SECONDS = chain_number("CHAIN_APP_CPU_MS", 1) / 1000
QUERY_SECONDS = chain_number("CHAIN_APP_QUERY_MS", 5) / 1000
POOL_WAIT = chain_number("CHAIN_APP_POOL_WAIT_S", 10)
POOL_SIZE = [chain_number("POOL_SIZE", 5).to_i, 1].max
POOL_LOCK = Mutex.new

# The worker's own pool, opened in the worker (after Puma forks) on its first request, with all
# its connections, so every cell holds the connections it says from then on.
def worker_pool
  POOL_LOCK.synchronize do
    @chain_pool ||= begin
      url = ENV.fetch("DATABASE_URL", "")
      abort("chain_app: set DATABASE_URL to the database's libpq URL") if url.empty?
      opened = Array.new(POOL_SIZE) { PG.connect(url) }
      ConnectionPool.new(size: POOL_SIZE, timeout: POOL_WAIT) { opened.pop || PG.connect(url) }
    end
  end
end

# Runs Ruby until this thread's CPU clock has advanced `seconds`.
def burn(seconds)
  target = Process.clock_gettime(Process::CLOCK_THREAD_CPUTIME_ID) + seconds
  total = 0
  total += 1 while total % 1000 != 0 || Process.clock_gettime(Process::CLOCK_THREAD_CPUTIME_ID) < target
  total
end

def text(status, body)
  [status, { "content-type" => "text/plain", "content-length" => body.bytesize.to_s }, [body]]
end

run(lambda do |_env|
  burn(CPU_SECONDS)
  begin
    worker_pool.with { |connection| connection.exec_params("SELECT pg_sleep($1)", [QUERY_SECONDS]) }
  rescue StandardError, ConnectionPool::TimeoutError => e
    next text(503, "database: #{e.class}: #{e.message}\n")
  end
  text(200, "ok\n")
end)
