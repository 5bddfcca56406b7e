#!/usr/bin/env python3
"""A PreToolUse hook that answers a Bash call `echo CASE` as the case of
cc-2.1.332.pretooluse-answers.json named CASE says: its stdout, stderr and
exit code. record.py hooks runs it under Claude Code, and tack's launch
tests under tack."""
import json
import os
import sys

call = json.load(sys.stdin)
name = call.get("tool_input", {}).get("command", "").removeprefix("echo ")
fixture = os.path.join(os.path.dirname(os.path.abspath(__file__)), "cc-2.1.332.pretooluse-answers.json")
for case in json.load(open(fixture, encoding="utf-8"))["cases"]:
    if case["name"] == name:
        sys.stdout.write(case.get("stdout", ""))
        sys.stderr.write(case.get("stderr", ""))
        sys.exit(case.get("exit", 0))
