#!/usr/bin/env python3
"""Records what real Claude Code's Edit makes of each case in edits.json.

Usage: record.py CLAUDE_CODE_CLI_JS
  e.g. npm pack @anthropic-ai/claude-code@2.0.0, untar it and pass
  package/cli.js (node 20 runs it). Nothing reaches Anthropic: a scripted
  Messages API on 127.0.0.1 has Claude Code read each case's file, then
  edit it with the case's arguments. Each case's "after" is rewritten with
  the file as Claude Code left it.
"""
import itertools
import json
import os
import subprocess
import sys
import tempfile
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

here = os.path.dirname(os.path.abspath(__file__))
fixture = os.path.join(here, "edits.json")


def serve(script):
    """A Messages API that answers the main loop's requests with the script's
    steps, one each, and every other request (titles, summaries) with text."""
    steps = itertools.count()

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args):
            pass

        def do_POST(self):
            req = json.loads(self.rfile.read(int(self.headers.get("content-length", 0))) or b"{}")
            blocks = [{"type": "text", "text": "ok"}]
            if any(t.get("name") == "Edit" for t in req.get("tools", [])):
                i = next(steps)
                blocks = script[i] if i < len(script) else [{"type": "text", "text": "done"}]
            self.send_response(200)
            self.send_header("content-type", "text/event-stream")
            self.end_headers()

            def event(kind, data):
                data["type"] = kind
                self.wfile.write(("event: %s\ndata: %s\n\n" % (kind, json.dumps(data))).encode())

            usage = {"input_tokens": 1, "output_tokens": 1}
            event("message_start", {"message": {"id": "msg", "type": "message", "role": "assistant", "model": req.get("model", ""),
                                                "content": [], "stop_reason": None, "stop_sequence": None, "usage": usage}})
            stop = "end_turn"
            for n, b in enumerate(blocks):
                if b["type"] == "tool_use":
                    stop = "tool_use"
                    event("content_block_start", {"index": n, "content_block": dict(b, input={})})
                    event("content_block_delta", {"index": n, "delta": {"type": "input_json_delta", "partial_json": json.dumps(b["input"])}})
                else:
                    event("content_block_start", {"index": n, "content_block": {"type": "text", "text": ""}})
                    event("content_block_delta", {"index": n, "delta": {"type": "text_delta", "text": b["text"]}})
                event("content_block_stop", {"index": n})
            event("message_delta", {"delta": {"stop_reason": stop, "stop_sequence": None}, "usage": {"output_tokens": 1}})
            event("message_stop", {})

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def main():
    cli = sys.argv[1]
    data = json.load(open(fixture, encoding="utf-8"))
    work = tempfile.mkdtemp()
    home, proj = os.path.join(work, "home"), os.path.join(work, "proj")
    os.makedirs(home)
    os.makedirs(proj)
    with open(os.path.join(home, ".claude.json"), "w") as f:
        json.dump({"projects": {proj: {"hasTrustDialogAccepted": True, "allowedTools": [], "mcpServers": {}}}}, f)
    script, paths = [], []
    for i, case in enumerate(data["cases"]):
        path = os.path.join(proj, "e%02d.txt" % i)
        with open(path, "w", encoding="utf-8", newline="") as f:
            f.write(case["before"])
        paths.append(path)
        script.append([{"type": "tool_use", "id": "r%d" % i, "name": "Read", "input": {"file_path": path}}])
        script.append([{"type": "tool_use", "id": "e%d" % i, "name": "Edit", "input": dict(case["args"], file_path=path)}])
    server = serve(script)
    env = dict(os.environ, HOME=home, ANTHROPIC_API_KEY="sk-recording",
               ANTHROPIC_BASE_URL="http://127.0.0.1:%d" % server.server_address[1],
               DISABLE_TELEMETRY="1", CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC="1", DISABLE_AUTOUPDATER="1")
    subprocess.run(["node", cli, "-p", "edit the files", "--permission-mode", "acceptEdits"],
                   cwd=proj, env=env, check=True, timeout=600, stdout=subprocess.DEVNULL)
    server.shutdown()
    for case, path in zip(data["cases"], paths):
        with open(path, encoding="utf-8", newline="") as f:
            case["after"] = f.read()
    with open(fixture, "w", encoding="utf-8") as f:
        json.dump(data, f, ensure_ascii=False, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
