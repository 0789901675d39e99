#!/usr/bin/env python3
# A "z3" (use as --solver z3=PATH) that is the real z3 on PATH but for one
# lie: its LIE_AT-th check-sat-assuming (1 unless $SMTGRID_FAKE_LIE_AT says
# otherwise) is answered unsat when z3 says sat, with every assumption as
# its core. Run on a script file rather than a session, it is z3 itself.
import os, re, subprocess, sys
if "--version" in sys.argv or "-in" not in sys.argv:
    os.execvp("z3", ["z3"] + sys.argv[1:])
lie_at = int(os.environ.get("SMTGRID_FAKE_LIE_AT", "1"))
z3 = subprocess.Popen(["z3"] + sys.argv[1:], stdin=subprocess.PIPE,
                      stdout=subprocess.PIPE, text=True)
asked, lied, pending = 0, None, []
for line in sys.stdin:
    pending.append(line)
    sentinel = re.search(r'\(echo "([^"]*)"\)', line)
    if not sentinel:
        continue
    sentinel = sentinel.group(1)
    request, pending = "".join(pending), []
    if lied is not None and "(get-unsat-assumptions)" in request:
        # z3 said sat: it has no core to give, so the lie makes one up.
        print("(" + " ".join(lied) + ")\n" + sentinel, flush=True)
        lied = None
        continue
    z3.stdin.write(request)
    z3.stdin.flush()
    reply = []
    for answer in z3.stdout:
        if answer.strip() == sentinel:
            break
        reply.append(answer)
    else:
        sys.exit(1)
    if "(check-sat-assuming" in request:
        asked += 1
        if asked == lie_at and reply and reply[0].strip() == "sat":
            reply[0] = "unsat\n"
            lied = re.search(r"\(check-sat-assuming \(([^)]*)\)", request).group(1).split()
    sys.stdout.write("".join(reply) + sentinel + "\n")
    sys.stdout.flush()
