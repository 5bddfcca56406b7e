# The runs a contributor needs. CI runs .ci/run (formatting, tidiness, vet,
# staticcheck, the race detector and short fuzz runs); `make ci` runs it here.
# Benchmark figures and how they were taken are in docs/perf.md.

GO  ?= go
PKG ?= ./...

.PHONY: test race fuzz bench goldens journeys agentsdk mcpreal claudetools ci

# Unit tests, golden screens, recorded journeys and the PTY smoke tests.
test:
	$(GO) test $(PKG)

# The same under the race detector, as CI runs it.
race:
	$(GO) test -race -timeout 15m $(PKG)

# Every fuzz target for FUZZTIME each (20s by default); FUZZ=FuzzRead runs one.
fuzz:
	.ci/fuzz $(FUZZ)

# Every benchmark once; narrow with PKG=./backend/tools/search BENCH=Search.
BENCH ?= .
bench:
	$(GO) test $(PKG) -run '^$$' -bench '$(BENCH)' -benchmem

# Rewrite the golden files of every package that has them; review the diff
# (git diff -- '*.golden' '*/screen.golden') before committing it.
goldens:
	$(GO) test $$($(GO) list -f '{{.ImportPath}} {{join .TestImports " "}} {{join .XTestImports " "}}' $(PKG) \
		| grep 'snapshots/testkit/golden' | cut -d' ' -f1) -update

# Drive tack with the real TypeScript Agent SDK (needs node and the npm
# registry, which CI has not): installs it (and zod, which its in-process
# MCP servers take schemas in) in SDKDIR once, then runs the tests.
SDKDIR ?= $(HOME)/.cache/tack-agent-sdk
agentsdk:
	test -d $(SDKDIR)/node_modules/@anthropic-ai/claude-agent-sdk || \
		(mkdir -p $(SDKDIR) && cd $(SDKDIR) && npm install @anthropic-ai/claude-agent-sdk zod)
	TACK_AGENT_SDK=$(SDKDIR) $(GO) test ./cmd/tack -run 'TestTheTypeScriptAgentSDK' -v

# Run tack's MCP client against the real npm servers that backend/mcp's
# recordings come from (needs node and the npm registry, which CI has not):
# installs them in MCPDIR once, then runs the tests; RECORD=1 records them
# anew into backend/mcp/testdata before replaying them.
MCPDIR ?= $(HOME)/.cache/tack-mcp-servers
MCPSERVERS = @modelcontextprotocol/server-everything@2026.8.31 @modelcontextprotocol/server-filesystem@2026.8.31
mcpreal:
	mkdir -p $(MCPDIR) && cd $(MCPDIR) && (npm ls $(MCPSERVERS) >/dev/null 2>&1 || npm install $(MCPSERVERS))
	TACK_MCP_NPM_DIR=$(MCPDIR) $(GO) test ./backend/mcp -run 'TestRealServers' -count=1 -v $(if $(RECORD),-args -record)
	$(GO) test ./backend/mcp -run 'TestRecordedServers' -count=1 -v

# Run the tools people run on Claude Code's transcripts and status line
# (ccusage, ccstatusline) on tack's (needs node and the npm registry, which
# CI has not): installs them in TOOLSDIR once, then runs the tests.
TOOLSDIR ?= $(HOME)/.cache/tack-claude-tools
CLAUDETOOLS = ccusage@20.0.24 ccstatusline@2.2.30
claudetools:
	mkdir -p $(TOOLSDIR) && cd $(TOOLSDIR) && (npm ls $(CLAUDETOOLS) >/dev/null 2>&1 || npm install $(CLAUDETOOLS))
	TACK_CLAUDE_TOOLS=$(TOOLSDIR) $(GO) test ./backend/session/claudelog ./backend/hooks -run 'Ccusage|Ccstatusline' -count=1 -v

# Replay the recorded journeys; JOURNEY=name (or all) re-records instead.
journeys:
ifdef JOURNEY
	$(GO) test ./snapshots/journeys -run TestJourneys -record $(JOURNEY)
else
	$(GO) test ./snapshots/journeys
endif

ci:
	.ci/run
