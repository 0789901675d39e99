#!/usr/bin/env python3
# A "z3" for sessions that never reads its input and prints every echo
# sentinel in advance, each after an `unknown` (the fake solver of the
# adversarial pass's defect 04, rewritten here). Once all is
# printed it creates TMPDIR/smtgrid-early-sentinels-PARENT_PID, then sleeps.
import os, sys, tempfile, time
if '--version' in sys.argv:
    print("Z3 version 4.8.12 - 64 bit"); sys.exit(0)
# All of it in one write (56 KB, within a pipe's 64 KB), so every sentinel
# is there before smtgrid asks its first question, however the scheduler
# interleaves the two processes.
text = "smtgrid-sentinel-1\n" + "".join(
    "unknown\nsmtgrid-sentinel-%d\n" % k for k in range(2, 2000))
os.write(1, text.encode())
mark = os.path.join(tempfile.gettempdir(), "smtgrid-early-sentinels-%d" % os.getppid())
open(mark, "w").close()
time.sleep(1000)
