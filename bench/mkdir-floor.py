#!/usr/bin/env python3
"""The kernel's floor under the lifecycle bench row: Drover's 17 directories per 3-task allocation (alloc/<id>,
alloc/<id>/alloc and its logs, data, tmp; per task its directory, local, secrets, tmp), made with nothing else,
CPU per allocation (docs/performance.md, "Issue 18, item 4: session 10").

    python3 bench/mkdir-floor.py [PARENT_DIR [ALLOCATIONS]]    # default /tmp 5000; the tree is removed after
"""
import os, time, sys, tempfile, uuid
base = tempfile.mkdtemp(prefix="mkdir-floor-", dir=sys.argv[1] if len(sys.argv) > 1 else "/tmp")
n = int(sys.argv[2]) if len(sys.argv) > 2 else 5000
os.mkdir(os.path.join(base, "alloc"))
t0 = os.times(); w0 = time.time()
for i in range(n):
    root = os.path.join(base, "alloc", str(uuid.uuid4()))
    os.mkdir(root); s = os.path.join(root, "alloc"); os.mkdir(s)
    for d in ("logs", "data", "tmp"): os.mkdir(os.path.join(s, d))
    for t in ("init", "main", "cleanup"):
        td = os.path.join(root, t); os.mkdir(td)
        for d in ("local", "secrets", "tmp"): os.mkdir(os.path.join(td, d))
t1 = os.times(); w1 = time.time()
cpu = (t1.user - t0.user) + (t1.system - t0.system)
print(f"{n} allocs x 17 mkdir in {base}: CPU {cpu*1e6/n:.0f} us per alloc (user {(t1.user-t0.user)*1e6/n:.0f}, sys {(t1.system-t0.system)*1e6/n:.0f}); {cpu*1e6/n/17:.1f} us per mkdir; wall {(w1-w0)*1e6/n:.0f} us/alloc")
os.system(f"rm -rf {base}")
