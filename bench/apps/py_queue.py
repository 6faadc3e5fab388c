# A real, unmodified program's threads: CPython's queue.Queue ping-pong.
# Each get() that waits makes a new lock (threading.Condition allocates a
# waiter lock per wait: a semaphore initialised and destroyed per hand-off
# in CPython 3.11 on Linux), and every thread switch goes through the GIL
# (a mutex and a condvar).
# usage: python3 py_queue.py [HANDOFFS=20000]
# prints: py_queue handoffs=N seconds=S handoffs_per_s=R
import queue
import sys
import threading
import time

n = int(sys.argv[1]) if len(sys.argv) > 1 else 20000
ping, pong = queue.Queue(), queue.Queue()


def echo():
    while True:
        x = ping.get()
        if x is None:
            return
        pong.put(x)


t = threading.Thread(target=echo)
t.start()
t0 = time.monotonic()
for i in range(n):
    ping.put(i)
    pong.get()
ping.put(None)
t.join()
el = time.monotonic() - t0
print(f"py_queue handoffs={n} seconds={el:.3f} handoffs_per_s={n / el:.0f}")
