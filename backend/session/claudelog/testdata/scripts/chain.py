#!/usr/bin/env python3
# A minimal re-creation of how a Claude Code transcript is read back as one conversation, as Claude
# Code does on --resume and viewers of its files do (e.g. claude-code-viewer, MIT): the conversation
# is the chain of parentUuid links from the newest line to the first, stepping over a compaction's
# boundary by its logicalParentUuid; lines on other branches (left by a rewind) are not in it.
# It prints the typed prompts of that chain, oldest first, one a line.
import json
import sys

path = json.load(sys.stdin)["transcript_path"]
lines = [json.loads(l) for l in open(path, encoding="utf-8") if l.strip()]
by_uuid = {d["uuid"]: d for d in lines if "uuid" in d}  # summary lines have none
chain = []
chained = [d for d in lines if "uuid" in d]
cur = chained[-1] if chained else None
while cur is not None:
    chain.append(cur)
    parent = cur.get("parentUuid") or cur.get("logicalParentUuid")
    cur = by_uuid.get(parent) if parent else None
for d in reversed(chain):
    if d["type"] == "user" and isinstance(d["message"]["content"], str) and not d.get("isCompactSummary") and not d.get("isMeta"):
        print(d["message"]["content"])
