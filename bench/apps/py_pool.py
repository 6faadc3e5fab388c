# A real, unmodified program's threads: CPython's concurrent.futures, a
# pool of 4 threads running small tasks submitted 50 at a time. Every
# Future has a threading.Condition (a lock: a semaphore initialised when
# the future is made and destroyed when it is freed), so a thread holds
# tens of short-lived semaphores at once; result() that waits makes one
# more per wait.
# usage: python3 py_pool.py [TASKS=20000]
# prints: py_pool tasks=N seconds=S tasks_per_s=R
import concurrent.futures
import sys
import time

n = int(sys.argv[1]) if len(sys.argv) > 1 else 20000


def task(i):
    return i * i


t0 = time.monotonic()
with concurrent.futures.ThreadPoolExecutor(max_workers=4) as ex:
    s = 0
    batch = 50
    for j in range(0, n, batch):
        futs = [ex.submit(task, i) for i in range(j, min(n, j + batch))]
        s += sum(f.result() for f in futs)
el = time.monotonic() - t0
print(f"py_pool tasks={n} seconds={el:.3f} tasks_per_s={n / el:.0f}")
