package main

// usage is what --help prints: every flag, with claude -p's beside
// tack's own.
const usage = `Usage: tack [flags] [task]

tack is a coding agent for your terminal. In a terminal it opens the
full-screen interface; with pipes it runs in line mode.

Flags:
  -p, --print [TASK]        run one task, print the answer and exit (the task
                            may also follow the flags, or come on stdin)
      --ui MODE             front door: auto, tui or line (default auto)
      --model ID            model to use (default from config, else the provider's:
                            deepseek-flash, gpt-5.4-mini for openai)
      --effort LEVEL        reasoning effort: off, low, high or max (Claude
                            Code's medium and xhigh are high and max)
      --thinking disabled, --max-thinking-tokens 0
                            no reasoning (the Agent SDKs' spellings; tack's
                            models take no thinking budget)
      --provider NAME       deepseek, openai (or the OpenAI-compatible server in
                            OPENAI_BASE_URL), or a [[providers]] name of config.toml
  -r, --resume [ID]         continue session ID (no ID: pick one; words that are
                            no ID: pick among the sessions they find)
      --session-id UUID     give the new session this id (claude -p's flag), to
                            --resume it by later
      --fork-session        with --resume or -c: go on in a copy of the
                            session with a new id, leaving it as it was
  -c, --continue            continue the latest session of this directory
  -C DIR                    run in DIR instead of the current directory
      --permission-mode M   read-only, ask, auto or full-access (default auto;
                            also TACK_PERMISSION_MODE; Claude Code's default,
                            acceptEdits and bypassPermissions are taken too),
                            or plan to start in plan mode
      --dangerously-skip-permissions
                            the same as --permission-mode full-access
      --output-format F     print mode output: text, json (the result object),
                            stream-json (claude -p's message stream) or events
      --input-format F      text, or stream-json: user messages on stdin, one
                            turn each (needs --output-format stream-json)
      --include-partial-messages
                            stream-json: add stream_event lines with the deltas
      --replay-user-messages
                            stream-json: write each user message read back out
      --include-hook-events
                            stream-json: a hook_started and a hook_response
                            line for every hook run (SessionStart's always)
      --disable-slash-commands
                            print mode: send a task starting with / as it is
      --permission-prompt-tool stdio
                            stream-json: ask the Agent SDK (can_use_tool) what
                            the permission mode would ask you
      --verbose             accepted for claude -p scripts (claude needs it with
                            stream-json; tack's stream-json is always complete)
      --no-session-persistence
                            print mode: keep nothing of the session once it
                            ends (a session resumed goes on in a copy)
      --debug[=TYPES]       print mode: each event of the session's log on
                            stderr as a JSON line, or those of TYPES (hook,
                            tool); --debug-file FILE writes them to FILE
      --thinking-display omitted
                            the same as --no-reasoning (summarized and full
                            change nothing); --debug-to-stderr is --debug,
                            and --betas, --task-budget and
                            --allow-dangerously-skip-permissions are taken
                            for the Agent SDKs
      --allowed-tools LIST  print mode: tools that run without asking, by name
                            or as Bash(prefix:*), comma or space separated
      --disallowed-tools LIST
                            print mode: tools refused whatever the mode
      --max-turns N         print mode: end a turn after N model requests
      --fallback-model ID   print mode: go on with this model when the model
                            stays overloaded after the retries
      --max-budget-usd N    print mode: stop once the run has cost more than
                            N dollars
      --json-schema JSON    print mode: the answer is JSON this schema (of an
                            object) validates, in the result's structured_output
      --image FILE          attach an image to the print-mode task (repeatable)
      --append-system-prompt TEXT, --append-system-prompt-file FILE
                            end the system prompt with TEXT, or FILE's text
      --system-prompt TEXT, --system-prompt-file FILE
                            open the system prompt with TEXT, or FILE's text,
                            instead of tack's brief (tool guidance and AGENTS.md
                            still follow)
      --mcp-config FILE|JSON
                            add the MCP servers of a file in .mcp.json's shape,
                            or of that JSON (repeatable); they win over others
      --strict-mcp-config   use only the servers of --mcp-config
      --settings FILE|JSON  add the hooks and permission rules of a file in
                            Claude Code's settings.json shape, or of that JSON
      --setting-sources LIST
                            Claude Code settings files to read: user, project,
                            local (default all)
      --tools LIST          the built-in tools to offer, comma separated (Bash,
                            Edit,Read); "" offers none, "default" all
      --agents JSON         subagents by name: {"reviewer": {"description":
                            "...", "prompt": "...", "tools": [...]}}
      --agent NAME          run the session as that agent: its prompt opens
                            the system prompt, its tools and model are used
      --plugin-dir DIR      load the Claude Code plugin in DIR (repeatable),
                            beside those installed and enabled for Claude Code
      --add-dir DIR         work in DIR too (repeatable): edits there count as
                            the workspace's; sandboxed commands may write there
      --color WHEN          auto, always or never
      --no-reasoning        leave the model's reasoning out of the output
  -v, --version             print the version and exit
  -h, --help                show this help

Environment:
  DEEPSEEK_API_KEY, DEEPSEEK_BASE_URL   DeepSeek credentials and endpoint
  OPENAI_API_KEY, OPENAI_BASE_URL       any OpenAI-compatible server
  TACK_HOME                             sessions, config and credentials (default ~/.tack)
`
