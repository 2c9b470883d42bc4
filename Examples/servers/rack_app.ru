# A Rack app for Puma whose every request holds its thread 10 ms (a blocking call), then answers
# 200 "ok". In cluster mode, Puma's master adds a worker process on SIGTTIN and retires one on
# SIGTTOU, so `--resize signals` sizes its workers in place:
#
#     poolsize sweep --server 'puma -w 1 -t 1:1 -b tcp://127.0.0.1:{port} Examples/servers/rack_app.ru' \
#         --resize signals --http 'http://127.0.0.1:{port}/' --sizes 1,2,4 --repeat 1
run lambda { |_env|
  sleep 0.01
  [200, { "content-type" => "text/plain" }, ["ok\n"]]
}
