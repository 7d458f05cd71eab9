"""Placing a job's tasks Ray-style with a contend lookup file.

Ray schedules a task onto a node when its resource request names a
resource only that node offers: Ray gives every node one, "node:<ip>" (its
NodeManagerAddress, as ray.nodes() lists them), so NODES are the nodes' IP
addresses (or, with --resource-prefix, names of custom resources you gave
your nodes, e.g. `ray start --resources '{"host-a": 1}'` and prefix "").
This example draws a placement for one job of class CLASS over those nodes
and prints, per task, the resource request a Ray driver would pass to
`remote(resources=...)`; with Ray installed and --ray, it submits no-op
tasks with them (NODES may then be omitted: the running cluster's nodes).
Usage:

    python3 ray_place.py LOOKUP.json CLASS 10.0.0.1 10.0.0.2 ... [--rate R] [--ray]
"""

import argparse
import json
import sys

from contend_sampler import Sampler, SamplerError


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("lookup")
    ap.add_argument("cls")
    ap.add_argument("nodes", nargs="*", help="the nodes' IP addresses (Ray's node:<ip> resources)")
    ap.add_argument("--resource-prefix", default="node:", help='resource name = prefix + node (default "node:")')
    ap.add_argument("--rate", type=float, help="the class's current arrival rate, jobs/s")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--ray", action="store_true", help="submit the tasks to a running Ray cluster")
    a = ap.parse_args(argv)
    if a.ray:
        import ray  # only with --ray: the example runs without Ray

        ray.init(address="auto")
        if not a.nodes:
            a.nodes = sorted(n["NodeManagerAddress"] for n in ray.nodes() if n.get("Alive"))
    if not a.nodes:
        ap.error("give the nodes (their IP addresses), or --ray to read them from the cluster")
    try:
        with Sampler(a.lookup, seed=a.seed) as s:
            placement = s.place(a.cls, servers=a.nodes, rates={a.cls: a.rate} if a.rate is not None else None)
    except SamplerError as e:
        print(f"ray_place: {e}", file=sys.stderr)
        return 2
    requests = {task: {f"{a.resource_prefix}{node}": 0.01} for task, node in placement.items()}
    print(json.dumps({"placement": dict(placement), "ray_resources": requests}, indent=2))
    if a.ray:
        @ray.remote
        def stage(name):
            return name

        refs = [stage.options(resources=r).remote(t) for t, r in requests.items()]
        print(ray.get(refs))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
