"""Locust users that GET the target's root as fast as it answers (no wait between requests),
for a `poolsize sweep --load` driven by Locust: see locust-load.sh, which runs a master and
workers, and docs/guide/server.md.

A request that is not answered with a 2xx is a failure (Locust's default for HTTP errors), so
it lands in the Aggregated row's failures, which `--parse locust` reads as errors.
"""

from locust import FastHttpUser, task


class Root(FastHttpUser):
    """One user: a GET of / on a kept-alive connection of its own, then the next at once."""

    @task
    def root(self):
        self.client.get("/")
