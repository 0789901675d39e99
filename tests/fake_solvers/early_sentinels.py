#!/usr/bin/env python3
# A "z3" for sessions that never reads its input and prints every echo
# sentinel in advance, each after an `unknown` (the fake solver of the
# adversarial pass's defect 04, rewritten here). Once all is
# printed it creates TMPDIR/smtgrid-early-sentinels-PARENT_PID, then sleeps.
import os, sys, tempfile, time
if '--version' in sys.argv:
    print("Z3 version 4.8.12 - 64 bit"); sys.exit(0)
out = sys.stdout
out.write("smtgrid-sentinel-1\n")
for k in range(2, 2000):
    out.write("unknown\nsmtgrid-sentinel-%d\n" % k)
out.flush()
mark = os.path.join(tempfile.gettempdir(), "smtgrid-early-sentinels-%d" % os.getppid())
open(mark, "w").close()
time.sleep(1000)
