#!/usr/bin/env python3
"""Records what real Claude Code does, for tests to hold tack to.

Usage: record.py edits|stream|commands|deny|allow|hooks|failures|mcpvars|mentions CLAUDE_CODE

CLAUDE_CODE is the cli.js of Claude Code's npm package (npm pack
@anthropic-ai/claude-code@2.0.0, untar, package/cli.js; node 20 runs it)
or, for commands, the claude binary of a later one (npm pack
@anthropic-ai/claude-code-linux-x64@2.1.332, package/claude). Nothing
reaches Anthropic: a scripted Messages API on 127.0.0.1 answers Claude
Code's requests with the steps a recording needs.

  edits   has Claude Code read, then edit, a file for each case of
          cc-2.0.0.edits.json, and rewrites each case's "after" with the
          file as Claude Code left it.
  stream  has Claude Code run one turn (a reply of thinking, text and a
          Read, then a text reply) with -p --output-format stream-json,
          without and with --include-partial-messages, and keeps what it
          printed in cc-2.0.0.stream-json.jsonl and
          cc-2.0.0.stream-json-partial.jsonl.
  deny    has Claude Code run each command of cc-2.1.332.bash-deny-rules.json
          with its allow and deny rules, and keeps in "denied" whether the
          rules refused it (the result's permission_denials).
  allow   has Claude Code run each command of cc-2.1.332.bash-allow-rules.json
          in default mode twice, with the allow rules and without, and keeps
          in "read_only" whether it ran without them (Claude Code runs
          read-only commands unasked) and in "allowed" whether only the
          rules let it run.
  hooks   runs `echo CASE` for each case of cc-2.1.332.pretooluse-answers.json
          with pretooluse-hook.py answering as the case says, and keeps in
          "blocked" whether the call was refused and in "read" what the
          model read of it.
  failures
          runs each case of cc-2.1.332.print-failures.json (a request the
          Messages API refuses, a prompt a UserPromptSubmit hook blocks) in
          each output format, and keeps what claude -p printed on stdout
          (in json and stream-json, its result object) and its exit code.
  mcpvars runs claude -p with the stdio server of
          cc-2.1.332.mcp-variables.json in .mcp.json (its arguments and env
          values with ${VAR} and ${VAR:-default} references) under the
          case's environment, and keeps in "started_with" the arguments
          and env values the server was started with.
  mentions
          sends one prompt holding every mention of
          cc-2.1.332.mentions.json (each names a file or folder of its own)
          and keeps in "attached" what Claude Code attached for it: the
          Read (file_path, offset, limit) or the folder it listed, or null.
  commands
          runs /cmd ARGS for each case of cc-2.1.332.command-arguments.json
          (a command file's front matter and body, and the arguments) and
          keeps in "expanded" the prompt Claude Code sent for it.
"""
import itertools
import json
import os
import re
import subprocess
import sys
import tempfile
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

here = os.path.dirname(os.path.abspath(__file__))


def serve(script, seen=None):
    """A Messages API that answers the main loop's requests (those that offer
    the Edit tool) with the script's steps, one each, and every other request
    (titles, summaries) with text. seen, when given, gets every main-loop
    request."""
    steps = itertools.count()

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args):
            pass

        def do_POST(self):
            req = json.loads(self.rfile.read(int(self.headers.get("content-length", 0))) or b"{}")
            blocks = [{"type": "text", "text": "ok"}]
            if any(t.get("name") == "Edit" for t in req.get("tools", [])):
                if seen is not None:
                    seen.append(req)
                i = next(steps)
                blocks = script[i] if i < len(script) else [{"type": "text", "text": "done"}]
            if isinstance(blocks, dict):  # {"status": N, "error": {"type": …, "message": …}}
                body = json.dumps({"type": "error", "error": blocks["error"]}).encode()
                self.send_response(blocks["status"])
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)
                return
            self.send_response(200)
            self.send_header("content-type", "text/event-stream")
            self.end_headers()

            def event(kind, data):
                data["type"] = kind
                self.wfile.write(("event: %s\ndata: %s\n\n" % (kind, json.dumps(data))).encode())

            usage = {"input_tokens": 1, "output_tokens": 1}
            event("message_start", {"message": {"id": "msg_recorded%d" % id(blocks), "type": "message", "role": "assistant",
                                                "model": req.get("model", ""), "content": [], "stop_reason": None,
                                                "stop_sequence": None, "usage": usage}})
            stop = "end_turn"
            for n, b in enumerate(blocks):
                if b["type"] == "tool_use":
                    stop = "tool_use"
                    event("content_block_start", {"index": n, "content_block": dict(b, input={})})
                    event("content_block_delta", {"index": n, "delta": {"type": "input_json_delta", "partial_json": json.dumps(b["input"])}})
                elif b["type"] == "thinking":
                    event("content_block_start", {"index": n, "content_block": {"type": "thinking", "thinking": "", "signature": ""}})
                    event("content_block_delta", {"index": n, "delta": {"type": "thinking_delta", "thinking": b["thinking"]}})
                    event("content_block_delta", {"index": n, "delta": {"type": "signature_delta", "signature": "c2ln"}})
                else:
                    event("content_block_start", {"index": n, "content_block": {"type": "text", "text": ""}})
                    event("content_block_delta", {"index": n, "delta": {"type": "text_delta", "text": b["text"]}})
                event("content_block_stop", {"index": n})
            event("message_delta", {"delta": {"stop_reason": stop, "stop_sequence": None}, "usage": {"output_tokens": 1}})
            event("message_stop", {})

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def claude(cli, script, args, seen=None, ran=None, env=None):
    """Runs Claude Code in a fresh project and home against the script and
    returns the project's path and what Claude Code printed. ran, when
    given, gets the whole run (exit code, stderr) and a failed run is kept;
    without it, a failed run is an error."""
    work = tempfile.mkdtemp()
    home, proj = os.path.join(work, "home"), os.path.join(work, "proj")
    os.makedirs(home)
    os.makedirs(proj)
    with open(os.path.join(home, ".claude.json"), "w") as f:
        json.dump({"projects": {proj: {"hasTrustDialogAccepted": True, "allowedTools": [], "mcpServers": {}}}}, f)
    steps = script(proj)
    server = serve(steps, seen)
    env = dict(os.environ, HOME=home, ANTHROPIC_API_KEY="sk-recording",
               ANTHROPIC_BASE_URL="http://127.0.0.1:%d" % server.server_address[1],
               DISABLE_TELEMETRY="1", CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC="1", DISABLE_AUTOUPDATER="1", **(env or {}))
    run = ["node", cli] if cli.endswith(".js") else [cli]
    done = subprocess.run(run + ["-p"] + args, cwd=proj, env=env, check=ran is None, timeout=600,
                          capture_output=True, text=True)
    server.shutdown()
    if ran is not None:
        ran.append(done)
    return proj, done.stdout


def edits(cli):
    fixture = os.path.join(here, "cc-2.0.0.edits.json")
    data = json.load(open(fixture, encoding="utf-8"))

    def script(proj):
        steps = []
        for i, case in enumerate(data["cases"]):
            path = os.path.join(proj, "e%02d.txt" % i)
            with open(path, "w", encoding="utf-8", newline="") as f:
                f.write(case["before"])
            steps.append([{"type": "tool_use", "id": "r%d" % i, "name": "Read", "input": {"file_path": path}}])
            steps.append([{"type": "tool_use", "id": "e%d" % i, "name": "Edit", "input": dict(case["args"], file_path=path)}])
        return steps

    proj, _ = claude(cli, script, ["edit the files", "--permission-mode", "acceptEdits"])
    for i, case in enumerate(data["cases"]):
        with open(os.path.join(proj, "e%02d.txt" % i), encoding="utf-8", newline="") as f:
            case["after"] = f.read()
    with open(fixture, "w", encoding="utf-8") as f:
        json.dump(data, f, ensure_ascii=False, indent=1)
        f.write("\n")


def stream(cli):
    def script(proj):
        with open(os.path.join(proj, "notes.txt"), "w") as f:
            f.write("buy milk\n")
        return [[{"type": "thinking", "thinking": "I should read the notes."}, {"type": "text", "text": "Reading."},
                 {"type": "tool_use", "id": "toolu_1", "name": "Read", "input": {"file_path": os.path.join(proj, "notes.txt")}}],
                [{"type": "text", "text": "The notes say: buy milk."}]]

    for name, extra in (("stream-json", []), ("stream-json-partial", ["--include-partial-messages"])):
        _, out = claude(cli, script, ["what do the notes say?", "--output-format", "stream-json", "--verbose"] + extra)
        with open(os.path.join(here, "cc-2.0.0.%s.jsonl" % name), "w") as f:
            f.write(out)


def commands(cli):
    fixture = os.path.join(here, "cc-2.1.332.command-arguments.json")
    cases = json.load(open(fixture, encoding="utf-8"))
    for case in cases:
        def script(proj):
            os.makedirs(os.path.join(proj, ".claude", "commands"))
            front = "---\n%s\n---\n" % case["frontmatter"] if case.get("frontmatter") else ""
            with open(os.path.join(proj, ".claude", "commands", "cmd.md"), "w") as f:
                f.write(front + case["body"] + "\n")
            return []

        seen = []
        claude(cli, script, [("/cmd " + case["args"]).strip()], seen)
        # The expanded prompt is the text block after the command's tags.
        blocks = [b.get("text", "") for m in seen[0]["messages"] if m["role"] == "user" and isinstance(m["content"], list)
                  for b in m["content"] if b.get("type") == "text"]
        tags = next(i for i, t in enumerate(blocks) if t.startswith("<command-message>"))
        case["expanded"] = blocks[tags + 1]
    with open(fixture, "w", encoding="utf-8") as f:
        json.dump(cases, f, ensure_ascii=False, indent=1)
        f.write("\n")


def denied_commands(cli, settings, cases, args):
    """The commands of cases Claude Code refused under settings."""
    def script(proj):
        os.makedirs(os.path.join(proj, ".claude"))
        with open(os.path.join(proj, ".claude", "settings.json"), "w") as f:
            json.dump(settings, f)
        return [[{"type": "tool_use", "id": "toolu_%02d" % i, "name": "Bash", "input": {"command": c["command"], "description": "x"}}]
                for i, c in enumerate(cases)]

    _, out = claude(cli, script, ["run the commands", "--output-format", "stream-json", "--verbose"] + args)
    result = [json.loads(line) for line in out.splitlines() if '"type":"result"' in line][-1]
    return {d["tool_input"]["command"] for d in result["permission_denials"]}


def rewrite(fixture, data):
    with open(fixture, "w", encoding="utf-8") as f:
        json.dump(data, f, ensure_ascii=False, indent=1)
        f.write("\n")


def deny(cli):
    fixture = os.path.join(here, "cc-2.1.332.bash-deny-rules.json")
    data = json.load(open(fixture, encoding="utf-8"))
    denied = denied_commands(cli, {"permissions": {"allow": data["allow"], "deny": data["deny"]}}, data["cases"], [])
    for c in data["cases"]:
        c["denied"] = c["command"] in denied
    rewrite(fixture, data)


def allow(cli):
    fixture = os.path.join(here, "cc-2.1.332.bash-allow-rules.json")
    data = json.load(open(fixture, encoding="utf-8"))
    default = ["--permission-mode", "default"]
    with_rules = denied_commands(cli, {"permissions": {"allow": data["allow"]}}, data["cases"], default)
    without = denied_commands(cli, {}, data["cases"], default)
    for c in data["cases"]:
        c["read_only"] = c["command"] not in without
        c["allowed"] = c["command"] in without and c["command"] not in with_rules
    rewrite(fixture, data)


def hooks(cli):
    fixture = os.path.join(here, "cc-2.1.332.pretooluse-answers.json")
    data = json.load(open(fixture, encoding="utf-8"))

    def script(proj):
        os.makedirs(os.path.join(proj, ".claude"))
        hook = {"type": "command", "command": os.path.join(here, "pretooluse-hook.py")}
        with open(os.path.join(proj, ".claude", "settings.json"), "w") as f:
            json.dump({"permissions": {"allow": ["Bash"]}, "hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [hook]}]}}, f)
        return [[{"type": "tool_use", "id": "toolu_%02d" % i, "name": "Bash", "input": {"command": "echo " + c["name"], "description": "x"}}]
                for i, c in enumerate(data["cases"])]

    _, out = claude(cli, script, ["run the commands", "--output-format", "stream-json", "--verbose", "--permission-mode", "acceptEdits"])
    results = {}
    for line in out.splitlines():
        msg = json.loads(line)
        if msg.get("type") == "user" and isinstance(msg["message"]["content"], list):
            for b in msg["message"]["content"]:
                if b.get("type") == "tool_result":
                    results[b["tool_use_id"]] = b
    for i, c in enumerate(data["cases"]):
        r = results["toolu_%02d" % i]
        c["blocked"] = bool(r.get("is_error"))
        c["read"] = r["content"] if isinstance(r["content"], str) else json.dumps(r["content"])
    rewrite(fixture, data)


def failures(cli):
    fixture = os.path.join(here, "cc-2.1.332.print-failures.json")
    data = json.load(open(fixture, encoding="utf-8"))
    for case in data:
        def script(proj):
            if case.get("block_prompt"):
                os.makedirs(os.path.join(proj, ".claude"))
                hook = {"type": "command", "command": "echo %s >&2; exit 2" % json.dumps(case["block_prompt"])}
                with open(os.path.join(proj, ".claude", "settings.json"), "w") as f:
                    json.dump({"hooks": {"UserPromptSubmit": [{"hooks": [hook]}]}}, f)
            if case.get("api_error"):
                # Claude Code asks again after a refusal before it gives up.
                return [case["api_error"]] * 10
            return [[{"type": "text", "text": "done"}]]

        ran = []
        extra = ["--verbose"] if case["format"] == "stream-json" else []
        _, out = claude(cli, script, ["hello", "--output-format", case["format"]] + extra, ran=ran)
        case["exit"] = ran[0].returncode
        case["stderr_empty"] = ran[0].stderr.strip() == ""
        if case["format"] == "text":
            case["stdout"] = out
        else:
            result = [json.loads(line) for line in out.splitlines() if line.startswith("{")][-1]
            case["result"] = {k: result.get(k) for k in ("type", "subtype", "is_error", "result")}
    rewrite(fixture, data)


def mcpvars(cli):
    fixture = os.path.join(here, "cc-2.1.332.mcp-variables.json")
    data = json.load(open(fixture, encoding="utf-8"))
    seen = os.path.join(tempfile.mkdtemp(), "started.json")
    probe = "import json, os, sys; json.dump({'args': sys.argv[1:], 'env': {k: os.environ.get(k) for k in %r}}, open(%r, 'w'))" % (
        sorted(data["env"]), seen)

    def script(proj):
        os.makedirs(os.path.join(proj, ".claude"))
        with open(os.path.join(proj, ".claude", "settings.json"), "w") as f:
            json.dump({"enableAllProjectMcpServers": True}, f)
        server = {"command": sys.executable, "args": ["-c", probe] + data["args"], "env": data["env"]}
        with open(os.path.join(proj, ".mcp.json"), "w") as f:
            json.dump({"mcpServers": {"probe": server}}, f)
        return [[{"type": "text", "text": "done"}]]

    for name in data["environment"]:
        os.environ.pop(name, None)
    claude(cli, script, ["hello"], env=data["environment"])
    started = json.load(open(seen))
    data["started_with"] = {"args": started["args"], "env": started["env"]}
    rewrite(fixture, data)


def mentions(cli):
    fixture = os.path.join(here, "cc-2.1.332.mentions.json")
    cases = json.load(open(fixture, encoding="utf-8"))

    def script(proj):
        for c in cases:
            path = os.path.join(proj, c["path"])
            if c.get("absent"):
                continue
            if c["folder"]:
                os.makedirs(path)
                with open(os.path.join(path, "inner.go"), "w") as f:
                    f.write("package inner\n")
                continue
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w") as f:
                f.write("".join("%s line %d\n" % (c["name"], i) for i in range(1, 9)))
        with open(os.path.join(proj, ".gitignore"), "w") as f:
            f.write("*.log\n")
        return [[{"type": "text", "text": "done"}]]

    seen = []
    proj, _ = claude(cli, script, [" ; ".join(c["text"] for c in cases)], seen)
    reminders = "\n".join(b.get("text", "") for m in seen[0]["messages"] if isinstance(m["content"], list)
                          for b in m["content"])
    calls = [(tool, json.loads(args)) for tool, args in
             re.findall(r"Called the (\w+) tool with the following input: (\{.*?\})\n", reminders)]
    for c in cases:
        path = os.path.join(proj, c["path"])
        c["attached"] = None
        for tool, args in calls:
            if tool == "Read" and args["file_path"] == path:
                c["attached"] = {"read": c["path"], "offset": args.get("offset"), "limit": args.get("limit")}
            elif tool == "Bash" and args["command"] == "ls " + path:
                c["attached"] = {"folder": c["path"]}
    rewrite(fixture, cases)


if __name__ == "__main__":
    {"edits": edits, "stream": stream, "commands": commands, "deny": deny, "allow": allow, "hooks": hooks,
     "failures": failures, "mcpvars": mcpvars, "mentions": mentions}[sys.argv[1]](sys.argv[2])
