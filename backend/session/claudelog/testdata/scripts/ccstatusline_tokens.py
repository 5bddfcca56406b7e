#!/usr/bin/env python3
# A re-creation, in Python, of how ccstatusline (https://github.com/sirmalloc/ccstatusline, MIT,
# Copyright (c) sirmalloc) reads a transcript for its token and compaction widgets:
# getTokenMetrics in src/utils/jsonl-metrics.ts (commit 00c0f8e4) and countCompactionsInLines in
# src/utils/compaction.ts (commit 1f784f0a). The original is TypeScript for bun; the logic is kept:
#   - every line with message.usage is a request; lines sharing message.id are one request (the last
#     one counts); once any line has a stop_reason field, lines without a stop reason do not count;
#   - totals add input, output, cache read and cache creation tokens;
#   - the context length is input + cache read + cache creation of the most recent (by timestamp)
#     main-chain request (not isSidechain, not isApiErrorMessage); after a compact_boundary only the
#     requests after it count, else 0;
#   - compactions are the main-chain system lines of subtype compact_boundary.
# It prints: input output cache_read cache_creation total context_length compactions
import json
import sys
from datetime import datetime


def ts(value):
    try:
        return datetime.fromisoformat(value.replace("Z", "+00:00")).timestamp()
    except Exception:
        return None


def is_boundary(d):
    return d.get("type") == "system" and d.get("subtype") == "compact_boundary" and d.get("isSidechain") is not True


def main(path):
    totals = {"input": 0, "output": 0, "read": 0, "creation": 0}
    recent = [None, None]  # timestamp, usage of the most recent main-chain request
    post = [None, None]  # the same, after the last compact boundary
    saw_boundary = False
    has_stop_field = False
    pending = None  # (message id, usage, countable, main, ts, post)
    compactions = 0

    def flush():
        nonlocal pending
        if pending and pending[2]:
            _, u, _, main, t, after = pending
            for k in totals:
                totals[k] += u[k]
            if main and t is not None:
                if recent[0] is None or t > recent[0]:
                    recent[0], recent[1] = t, u
                if after and (post[0] is None or t > post[0]):
                    post[0], post[1] = t, u
        pending = None

    for raw in open(path, encoding="utf-8"):
        raw = raw.strip()
        if not raw:
            continue
        try:
            d = json.loads(raw)
        except Exception:
            continue
        boundary = is_boundary(d)
        if boundary:
            compactions += 1
            saw_boundary = True
            if pending:
                pending = pending[:5] + (False,)
            post[0] = post[1] = None
        msg = d.get("message") or {}
        usage = msg.get("usage")
        if not usage:
            continue
        u = {
            "input": usage.get("input_tokens") or 0,
            "output": usage.get("output_tokens") or 0,
            "read": usage.get("cache_read_input_tokens") or 0,
            "creation": usage.get("cache_creation_input_tokens") or 0,
        }
        if "stop_reason" in msg and not has_stop_field:
            has_stop_field = True
            for k in totals:
                totals[k] = 0
            recent[0] = recent[1] = post[0] = post[1] = None
            pending = None
        mid = msg.get("id") or None
        if mid is None or pending is None or mid != pending[0]:
            flush()
        main = d.get("isSidechain") is not True and not d.get("isApiErrorMessage")
        countable = (not has_stop_field) or bool(msg.get("stop_reason"))
        pending = (mid, u, countable, main, ts(d.get("timestamp") or ""), not boundary)
    flush()

    def length(u):
        return None if u is None else u["input"] + u["read"] + u["creation"]

    if saw_boundary:
        context = length(post[1]) or 0
    else:
        context = length(recent[1]) or 0
    total = sum(totals.values())
    print(totals["input"], totals["output"], totals["read"], totals["creation"], total, context, compactions)


if __name__ == "__main__":
    main(json.load(sys.stdin)["transcript_path"])
